/**
 * `kde-profiler compare RUN_A RUN_B [--threshold PCT]`: warm medians, first calls and memory side
 * by side with deltas and the 95 % interval of B/A; exit 3 when B regresses beyond the threshold
 * and the interval excludes no change (for a lab's own CI). A rise whose interval holds 1 is
 * within noise and exits 0. A run is an id in the runs folder, a folder holding report.json (a
 * `run --out DIR`), or a report.json.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseBoundedJson } from '../../shared/boundedJson';
import { AppError } from '../../shared/errors';
import { pendingCommit, readResultManifest, readUntrustedText, recoverResultFolder } from '../data';
import { reportUnderMethodNames } from '../../shared/posteriorMethodNames';
import type { Report } from '../../shared/report';
import { compareReports, formatComparisonTable } from '../analysis';
import { RESULT_FOLDER_NAMES, RUN_FILES } from '../engineProtocol';
import { boolFlag, numberFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { withService } from './cliService';
import { isRunId } from '../../shared/runIds';
import type { ProfilerService } from '../service';

const USAGE = 'kde-profiler compare RUN_A RUN_B [--threshold PCT] [--runs-dir DIR] [--json]';
const OPTIONS = { threshold: { type: 'string' }, 'runs-dir': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
export const DEFAULT_THRESHOLD_PCT = 10;
/** the most a report.json named here may hold */
const MAX_REPORT_BYTES = 32 * 2 ** 20;

/**
 * A `--out` folder whose commit was killed holds no whole result until it is finished: finish it
 * (the new result is complete in its staging folder), or say why it cannot be read yet.
 */
async function finishPendingCommit(dir: string): Promise<void> {
  if ((await readResultManifest(dir)) || !(await pendingCommit(dir))) return;
  try {
    await recoverResultFolder(dir, { all: RESULT_FOLDER_NAMES });
  } catch (e) {
    throw new AppError('IO', `${dir} holds a result whose commit was interrupted and cannot be finished here (${(e as Error).message}): run the command again with --out ${dir}, or copy the folder somewhere you may write.`, { file: dir });
  }
}

async function reportFile(path: string): Promise<Report> {
  let file = path;
  try {
    if ((await stat(path)).isDirectory()) file = join(path, RUN_FILES.report);
  } catch {
    throw new AppError('NOT_FOUND', `${path} is neither a run id in the runs folder nor a run folder or ${RUN_FILES.report}.`, { file: path });
  }
  if (file !== path) await finishPendingCommit(path);
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(await readUntrustedText(file, { maxBytes: MAX_REPORT_BYTES, fix: `name a run id, a run folder or its ${RUN_FILES.report}` }), file);
  } catch (e) {
    // a pipe, a device, a link or an oversized file is refused in its own words
    if (e instanceof AppError && e.code !== 'NOT_FOUND' && !/is not valid JSON/.test(e.message)) throw e;
    throw new AppError('NOT_FOUND', `${file} is missing or not JSON: the run may have failed before writing its report.`, { file });
  }
  const r = parsed as Partial<Report>;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.strategies) || typeof r.backend !== 'object') {
    throw new AppError('BAD_ARGUMENT', `${file} is not a kde-profiler ${RUN_FILES.report}.`, { file });
  }
  return reportUnderMethodNames(r as Report);
}

async function reportOf(arg: string, service: ProfilerService, io: CliIo): Promise<{ label: string; report: Report }> {
  if (isRunId(arg)) {
    const detail = await service.getRun(arg).catch(() => undefined);
    if (detail) {
      if (!detail.report) throw new AppError('NOT_FOUND', `run ${arg} has no report to compare (it is ${detail.entry.status}).`, { key: arg });
      return { label: arg, report: detail.report };
    }
  }
  return { label: arg, report: await reportFile(resolve(io.cwd, arg)) };
}

/** A run that did not complete is compared on what it measured before it stopped, and the output says so. */
function unfinishedNote(side: 'A' | 'B', run: { label: string; report: Report }): string | null {
  if (run.report.status === 'completed') return null;
  const why = run.report.error ? `: ${run.report.error.message}` : '';
  return `note: ${side} (${run.label}) did not complete (${run.report.status}${why}); it is compared on what it measured before it stopped.`;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS, 2);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const [argA, argB] = flags.positionals;
  if (argA === undefined || argB === undefined) throw new UsageError('compare needs two runs: RUN_A RUN_B');
  const thresholdPct = numberFlag(flags, 'threshold', false) ?? DEFAULT_THRESHOLD_PCT;
  if (thresholdPct < 0) throw new UsageError(`--threshold: expected a percentage ≥ 0, got '${thresholdPct}'`);
  const [a, b] = await withService(io, stringFlag(flags, 'runs-dir'), async (service) => [await reportOf(argA, service, io), await reportOf(argB, service, io)] as const);
  const result = compareReports(a.report, b.report, thresholdPct);
  const notes = [unfinishedNote('A', a), unfinishedNote('B', b)].filter((n): n is string => n !== null);
  if (boolFlag(flags, 'json')) {
    io.stdout.write(`${JSON.stringify({ a: a.label, b: b.label, ...result, ...(notes.length > 0 ? { notes } : {}) }, null, 2)}\n`);
  } else {
    const noted = notes.length > 0 ? `\n\n${notes.join('\n')}` : '';
    io.stdout.write(`A: ${a.label}\nB: ${b.label}\n\n${formatComparisonTable(result.rows)}\n\n${result.verdict}${noted}\n`);
  }
  return result.regressed ? EXIT.regression : result.inconclusive ? EXIT.inconclusive : EXIT.ok;
}

export const compareCommand: CliCommand = {
  summary: 'compare two runs; exit 3 when B regresses beyond the threshold and beyond noise, 4 when a run was measured busy and the change is inconclusive',
  usage: USAGE,
  flags: OPTIONS,
  run: execute,
};
