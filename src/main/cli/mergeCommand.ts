/**
 * `kde-profiler merge RUN_OR_DIR… --out DIR`: the shards of a sharded run (`run`/`decode` with
 * `--shard I/N`, one SLURM array task each) made into one run through the service: checked to
 * belong together, their likelihoods summed, one report and one trace, recorded in the run store
 * (so `list` and the app show it) and copied to DIR. Each argument is a run id in --runs-dir, a
 * run folder, or a folder holding the shards' run folders.
 */
import { resolve } from 'node:path';
import { formatMs } from '../../shared/format';
import { RUN_ID_PATTERN } from '../../shared/runIds';
import { mergeShardRuns, type MergeSummary } from '../batch';
import { RUN_FILES } from '../engineProtocol';
import { boolFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { defaultRunsDir } from './cliService';
import { runSummary } from './runSummary';
import { printRunLink } from './serverLink';

const USAGE = 'kde-profiler merge RUN_OR_DIR… --out DIR [--runs-dir DIR]';
const OPTIONS = { out: { type: 'string' }, 'runs-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** as many shard runs as a large array could name one by one */
const MAX_SOURCES = 10_000;

function shardLines(s: MergeSummary): string {
  const lines = s.shards.map((shard) => {
    const wall = shard.wallMs === null ? 'time not recorded' : formatMs(shard.wallMs);
    const cpu = shard.cpuMs === null ? '' : ` · CPU ${formatMs(shard.cpuMs)}`;
    const host = shard.host ? ` on ${shard.host}` : '';
    return `  shard ${shard.index}/${s.count} (run ${shard.runId})${host}: ${shard.electrodes.length} electrodes · ${wall}${cpu}\n`;
  });
  const critical = s.criticalPath ? `critical path: shard ${s.criticalPath.index}/${s.count}, ${formatMs(s.criticalPath.wallMs)}` : 'critical path: not recorded';
  const cpu = s.totalCpuMs === null ? '' : ` · CPU time in all: ${formatMs(s.totalCpuMs)}`;
  return `${s.count} shards split by ${s.by}, dataset ${s.fingerprint}\n${lines.join('')}${critical}${cpu}\n`;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS, MAX_SOURCES);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (flags.positionals.length === 0) throw new UsageError('merge needs the shard runs: run ids (see kde-profiler list), run folders, or a folder holding them');
  const out = stringFlag(flags, 'out');
  if (out === undefined) throw new UsageError('--out DIR is required: the merged report, trace and likelihoods are written there');
  // run ids stay ids (looked up in the runs folder); anything else is a folder, resolved here
  const sources = flags.positionals.map((p) => (RUN_ID_PATTERN.test(p) ? p : resolve(io.cwd, p)));
  const runsDir = defaultRunsDir(io, stringFlag(flags, 'runs-dir'));
  const outDir = resolve(io.cwd, out);
  const result = await mergeShardRuns({ sources, runsDir, outDir });
  io.stdout.write(runSummary(result.report));
  io.stdout.write(shardLines(result.summary));
  if (result.schemaProblems.length > 0) io.stderr.write(`warning: the merged ${RUN_FILES.report} does not match its schema: ${result.schemaProblems.slice(0, 5).join('; ')}\n`);
  io.stderr.write(`run ${result.runId}: merged run in ${result.runDir}, copied to ${outDir}\n`);
  await printRunLink(io, runsDir, result.runId, 'results');
  return EXIT.ok;
}

export const mergeCommand: CliCommand = {
  summary: 'merge the shard runs of a sharded run (--shard I/N) into one run',
  usage: USAGE,
  flags: OPTIONS,
  run: execute,
};
