/**
 * `kde-profiler slurm`: a sharded run on a SLURM cluster. Writes an array job (one task per shard,
 * each a recorded `run --shard I/N` into the shared runs folder) and a merge job that depends on
 * it, into OUT; with --submit it hands both to sbatch and prints the job ids. The run flags after
 * `--` are checked here, on the login node, so a typo fails now rather than in N queued tasks.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARD_SPLITS, type ShardSplit } from '../../shared/config';
import { openNpz, PRESET_INFO } from '../data';
import { boolFlag, intFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { defaultRunsDir } from './cliService';
import { parseRunFlags, runConfigFromFlags } from './runFlags';
import { arrayScript, mergeScript, type SlurmPlan } from './slurmScript';

const USAGE = `kde-profiler slurm --data FILE --shards N --out DIR [--shard-by round-robin|spikes]
                   [--partition P] [--time T] [--cpus-per-task C] [--gpus-per-task G] [--job-name NAME]
                   [--runs-dir DIR] [--cli COMMAND] [--submit] -- [RUN FLAGS…]`;

const OPTIONS = {
  data: { type: 'string' },
  shards: { type: 'string' },
  'shard-by': { type: 'string' },
  out: { type: 'string' },
  partition: { type: 'string' },
  time: { type: 'string' },
  'cpus-per-task': { type: 'string' },
  'gpus-per-task': { type: 'string' },
  'job-name': { type: 'string' },
  'runs-dir': { type: 'string' },
  cli: { type: 'string' },
  submit: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** flags the scripts set themselves for every shard */
const SET_BY_SCRIPT = ['--data', '--shard', '--shard-by', '--runs-dir', '--out', '--workers', '--label'];

const ARRAY_SCRIPT = 'kde-profiler-shards.sbatch';
const MERGE_SCRIPT = 'kde-profiler-merge.sbatch';

/** node and this checkout's (or package's) entry script: compute nodes see the same shared paths */
function defaultCli(): string[] {
  // from source (src/main/cli) or the CLI's build (out/cli)
  return [process.execPath, fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../bin/kde-profiler.mjs' : '../../bin/kde-profiler.mjs', import.meta.url))];
}

function checkRunFlags(runFlags: string[]): string[] {
  const own = runFlags.find((f) => SET_BY_SCRIPT.includes(f.split('=')[0]!));
  if (own) throw new UsageError(`${own.split('=')[0]} is set by the scripts for every shard: leave it out of the run flags after --`);
  // parsed once here with a stand-in data source, so the flags fail now rather than on the cluster
  runConfigFromFlags(parseRunFlags(['--data', 'preset:tiny', ...runFlags]));
  return runFlags.includes('--save-likelihood') ? runFlags : [...runFlags, '--save-likelihood'];
}

function slurmTime(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^(\d+-)?\d+(:\d{1,2}){0,2}$/.test(text)) throw new UsageError(`--time: expected minutes, MM:SS, HH:MM:SS or D-HH:MM:SS, got '${text}'`);
  return text;
}

/** SLURM's own default MaxArraySize is 1001; no site allows arrays near this */
const MAX_SHARDS = 100_000;

/** The electrodes a data file holds, where that is cheap to know (a preset, an npz's keys); undefined otherwise. */
async function electrodeCount(data: string): Promise<number | undefined> {
  if (data.startsWith('preset:')) return PRESET_INFO.find((p) => p.name === data.slice('preset:'.length))?.nElectrodes;
  if (!data.endsWith('.npz')) return undefined;
  const npz = await openNpz(data).catch(() => undefined);
  if (!npz) return undefined;
  try {
    if (npz.has('spike_times_index')) return (await npz.read('spike_times_index')).shape[0];
    return npz.keys.filter((k) => /^spike_times_\d+$/.test(k)).length || undefined;
  } catch {
    return undefined;
  } finally {
    await npz.close();
  }
}

/** Refuses more shards than electrodes: each shard decodes whole electrodes, so the rest would have none. */
async function checkShards(plan: SlurmPlan): Promise<void> {
  const electrodes = await electrodeCount(plan.data);
  if (electrodes !== undefined && plan.shards > electrodes) {
    throw new UsageError(`--shards ${plan.shards}: ${plan.data} has ${electrodes} electrodes, and a shard decodes whole electrodes: give --shards ${electrodes} or fewer`);
  }
}

function planFrom(args: string[], io: CliIo): { plan: SlurmPlan; submit: boolean } | null {
  const dash = args.indexOf('--');
  const own = dash < 0 ? args : args.slice(0, dash);
  const runFlags = dash < 0 ? [] : args.slice(dash + 1);
  const flags = parseFlags(own, OPTIONS);
  if (boolFlag(flags, 'help')) return null;
  const data = stringFlag(flags, 'data');
  if (!data) throw new UsageError('--data is required: the .npz or .nwb file every shard reads (on a folder the compute nodes share)');
  const shards = intFlag(flags, 'shards', 1, MAX_SHARDS);
  if (shards === undefined) throw new UsageError('--shards N is required');
  const out = stringFlag(flags, 'out');
  if (!out) throw new UsageError('--out DIR is required: a folder the compute nodes share, for the scripts, logs and shard outputs');
  const shardBy = stringFlag(flags, 'shard-by') ?? 'round-robin';
  if (!(SHARD_SPLITS as readonly string[]).includes(shardBy)) throw new UsageError(`--shard-by: expected one of ${SHARD_SPLITS.join(', ')}, got '${shardBy}'`);
  const name = stringFlag(flags, 'job-name') ?? 'kde-profiler';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new UsageError(`--job-name: letters, digits, '_', '.' and '-' only, got '${name}'`);
  const partition = stringFlag(flags, 'partition');
  if (partition !== undefined && !/^[A-Za-z0-9_.,-]{1,128}$/.test(partition)) throw new UsageError(`--partition: not a partition name: '${partition}'`);
  const cli = stringFlag(flags, 'cli');
  const plan: SlurmPlan = {
    cli: cli ? cli.split(/\s+/).filter(Boolean) : defaultCli(),
    data: data.startsWith('preset:') || isAbsolute(data) ? data : resolve(io.cwd, data),
    shards,
    shardBy: shardBy as ShardSplit,
    runsDir: defaultRunsDir(io, stringFlag(flags, 'runs-dir')),
    outDir: resolve(io.cwd, out),
    runFlags: checkRunFlags(runFlags),
    jobName: name,
    partition,
    time: slurmTime(stringFlag(flags, 'time')),
    cpusPerTask: intFlag(flags, 'cpus-per-task', 1) ?? 1,
    gpusPerTask: intFlag(flags, 'gpus-per-task', 1),
  };
  return { plan, submit: boolFlag(flags, 'submit') };
}

/** sbatch --parsable prints `jobid[;cluster]` */
function sbatch(args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('sbatch', ['--parsable', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(new UsageError(e.code === 'ENOENT'
        ? 'sbatch was not found: run this on a SLURM login node, or submit the scripts written to --out yourself'
        : `sbatch could not start: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolvePromise(out.trim().split(';')[0]!);
      else reject(new UsageError(`sbatch refused the job (exit ${code}): ${err.trim() || out.trim()}`));
    });
  });
}

export const slurmCommand: CliCommand = {
  summary: 'write (and submit) a sharded run as a SLURM array job with a dependent merge',
  usage: USAGE,
  // its own flags, those before `--`; the run flags after it are checked against run's table
  flags: OPTIONS,
  async run(args, io) {
    const asked = planFrom(args, io);
    if (asked === null) {
      io.stdout.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    const { plan, submit } = asked;
    await checkShards(plan);
    await mkdir(join(plan.outDir, 'logs'), { recursive: true });
    const arrayPath = join(plan.outDir, ARRAY_SCRIPT);
    const mergePath = join(plan.outDir, MERGE_SCRIPT);
    await writeFile(arrayPath, arrayScript(plan));
    await writeFile(mergePath, mergeScript(plan));
    await Promise.all([chmod(arrayPath, 0o755), chmod(mergePath, 0o755)]);
    io.stdout.write(`wrote ${arrayPath} (${plan.shards} shards) and ${mergePath}\n`);
    if (!submit) {
      io.stdout.write(`submit with: jid=$(sbatch --parsable ${arrayPath}) && sbatch --dependency=afterok:$jid ${mergePath}\n`);
      return EXIT.ok;
    }
    const shardsJob = await sbatch([arrayPath]);
    const mergeJob = await sbatch([`--dependency=afterok:${shardsJob}`, mergePath]);
    io.stdout.write(`submitted: shards job ${shardsJob} (array 0-${plan.shards - 1}), merge job ${mergeJob}\n`);
    io.stdout.write(`the merged run will be in ${join(plan.outDir, 'merged')} and in the runs folder ${plan.runsDir}\n`);
    return EXIT.ok;
  },
};
