/**
 * `kde-profiler run`: one profiling run through the service (so it lands in the run store like a
 * run from the app), progress on stderr, a summary on stdout, outputs copied to --out, and the
 * run's web link when a `kde-profiler serve` runs on the same runs folder.
 */
import { resolve } from 'node:path';
import type { RunIndexEntry } from '../../shared/api';
import type { RunConfig } from '../../shared/config';
import { deserializeError, exitCodeFor } from '../../shared/errors';
import { holdsResult } from '../data';
import { RESULT_FOLDER_NAMES } from '../engineProtocol';
import { boolFlag, stringFlag } from './args';
import { EXIT, type CliCommand, type CliIo } from './cliTypes';
import { checkNpzStart } from './dataFile';
import { withEveryProblemPointer } from './dataProblems';
import { resolveNwbData } from './nwbData';
import { ProgressLine } from './progressLine';
import { checkOutputFolder } from './outputChecks';
import { notCopiedMessage } from './outputFiles';
import { copyRunOutputs, runOutputsOf } from './runOutputs';
import { oldPosteriorFlagNote } from './posteriorMethodFlag';
import { parseRunFlags, RUN_FLAGS, runConfigFromFlags } from './runFlags';
import { runSummary } from './runSummary';
import { printRunLink } from './serverLink';
import type { ProfilerService } from '../service';
import { withService } from './cliService';

const RUN_USAGE = `kde-profiler run --data FILE.npz|FILE.nwb|preset:NAME [--recipe FILE.recipe.json]
                 [--seed N] [--features D] [--feature-scale F]
                 [--backend auto|wasm|cpu|webgpu|tensorflow] [--strategy NAME[,NAME…]|all] (NAME: a strategy, auto or nld-dispatch)
                 [--block-size N] [--enc-tile N] [--pos-tile N] [--memory-budget-mb MB]
                 [--repeats N|auto [--max-time S]] [--warmup N] [--local] [--save-likelihood] [--label TEXT]
                 [--workers N] [--no-kernel-profile] [--allow-tf32]
                 [--model decoder|detector|none] (the state-space posterior after the likelihood; default none)
                 [--posterior-method structured|dense|both] (the posterior's methods timed; default both;
                  --posterior-strategy is its old name, still read)
                 [--movement-var CM2] [--no-spike-rate HZ] [--discrete-transition JSON] [--local-position-std CM]
                  (the model's parameters, as decode takes them: kde-profiler decode --help)
                 [--engine numpy|nld:clusterless_kde|nld:clusterless_kde_log[:x64]|'cmd:COMMAND'] … (other implementations
                  profiled beside the strategies, each as a child process; docs/external-engines.md)
                 [--engine nld:decoder|nld:detector[:x64]] (NLD's whole decode, with --model of the same name:
                  its posterior compared with the run's own)
                 [--python PATH] (the Python of the numpy and nld engines; default KDE_PROFILER_PYTHON, else python3)
                 [--engine-timeout S] (an engine still running after S seconds is stopped; default 1800)
                 [--engine-trace] (each engine's framework trace of one more warm call on the timeline: JAX's profiler)
                 [--shard I/N [--shard-by round-robin|spikes]] (electrodes I, I+N, … only; kde-profiler merge joins the shards)
                 [--out DIR] [--runs-dir DIR] [--no-trace] [--trace-json]`;

export interface FollowedRun {
  final: RunIndexEntry;
  /** the user pressed Ctrl-C (or the process got SIGTERM) and the run was asked to stop */
  interrupted: boolean;
}

/**
 * Waits for a run: its progress on stderr, its warnings and errors (and with `infoLogs` its notes
 * too) on their own lines, Ctrl-C turned into a cancel of the run.
 */
export async function followRun(service: ProfilerService, runId: string, io: CliIo, options: { infoLogs?: boolean } = {}): Promise<FollowedRun> {
  const progress = new ProgressLine(io.stderr);
  const unsubscribe = service.subscribe(runId, (e) => {
    if (e.type === 'progress') progress.update(e.progress);
    else if (e.type === 'log' && (e.level !== 'info' || options.infoLogs)) {
      progress.done();
      io.stderr.write(e.level === 'info' ? `${e.message}\n` : `${e.level}: ${e.message}\n`);
    }
  });
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    void service.cancelRun(runId);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return { final: await service.whenFinished(runId), interrupted };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unsubscribe();
    progress.done();
  }
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseRunFlags(args);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return EXIT.ok;
  }
  const note = oldPosteriorFlagNote(flags);
  if (note) io.stderr.write(note);
  const config = runConfigFromFlags(flags);
  if (config.data.kind === 'file') config.data = { kind: 'file', path: resolve(io.cwd, config.data.path) };
  config.data = await resolveNwbData(config.data, stringFlag(flags, 'recipe'), io.cwd);
  await checkNpzStart(config.data);
  const outFlag = stringFlag(flags, 'out');
  const outDir = outFlag === undefined ? undefined : resolve(io.cwd, outFlag);
  const traceJson = boolFlag(flags, 'trace-json');
  if (outDir) await checkOutputFolder(outDir, runOutputsOf(config, { traceJson }));
  return withService(io, stringFlag(flags, 'runs-dir'), (service) => runAndReport(service, config, outDir, traceJson, io), true);
}

/**
 * The run's result into --out as one commit. A run that did not complete replaces nothing: where
 * --out already holds a result it is kept, and what the run recorded stays in the run store.
 */
async function copyToOut(runId: string, runDir: string, outDir: string, status: string, traceJson: boolean, io: CliIo): Promise<boolean | 'failed'> {
  if (status !== 'completed' && (await holdsResult(outDir, { all: RESULT_FOLDER_NAMES }))) {
    io.stderr.write(`--out ${outDir} keeps its earlier result: a run that did not complete replaces nothing there\n`);
    return false;
  }
  try {
    await copyRunOutputs(runDir, outDir, { traceJson }, { runId, status });
    return true;
  } catch (e) {
    if (status !== 'completed') throw e;
    // the run itself is complete in the store: say where, rather than only why the copy failed
    io.stderr.write(notCopiedMessage(runId, e, runDir));
    return 'failed';
  }
}

async function runAndReport(service: ProfilerService, config: RunConfig, outDir: string | undefined, traceJson: boolean, io: CliIo): Promise<number> {
  const { runId } = await service.startRun(config);
  const { final, interrupted } = await followRun(service, runId, io);
  const runDir = resolve(service.runsDir, runId);
  const copied = outDir !== undefined && (await copyToOut(runId, runDir, outDir, final.status, traceJson, io));
  if (copied === 'failed') return EXIT.internal;
  const where = copied === true ? outDir! : runDir;
  if (final.status === 'completed') {
    const detail = await service.getRun(runId);
    if (detail.report) io.stdout.write(runSummary(detail.report));
    io.stderr.write(`run ${runId}: report in ${where}\n`);
    await printRunLink(io, service.runsDir, runId, 'results');
    const failed = detail.report?.strategies.filter((s) => s.status === 'failed') ?? [];
    for (const s of failed) io.stderr.write(`error: ${s.strategy} failed: ${s.error?.message ?? 'unknown error'}\n`);
    return failed.length > 0 ? EXIT.internal : EXIT.ok;
  }
  if (final.status === 'cancelled' || interrupted) {
    io.stderr.write(`run ${runId} cancelled; what was recorded is in ${where}\n`);
    await printRunLink(io, service.runsDir, runId, 'live');
    return EXIT.interrupted;
  }
  const error = deserializeError(final.error ?? { code: 'RUN_FAILED', message: 'the run failed' });
  const code = exitCodeFor(error);
  // refused input: one line in the command's own error form, as any other refusal
  if (code === EXIT.usage) throw withEveryProblemPointer(error, config.data);
  // a crash also says where its partial trace is
  io.stderr.write(`error: ${error.message}\n`);
  io.stderr.write(`run ${runId} failed; what was recorded is in ${where}\n`);
  await printRunLink(io, service.runsDir, runId, 'live');
  return code;
}

export const runCommand: CliCommand = {
  summary: 'profile fit + predict of one or more strategies on a dataset',
  usage: RUN_USAGE,
  flags: RUN_FLAGS,
  run: execute,
};
