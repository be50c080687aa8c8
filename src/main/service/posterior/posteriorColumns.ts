/**
 * Where each state's columns lie in a run's posterior files, from what decode.json (a decode) or
 * report.json (a profiling run with a posterior) says of the posterior: NLD's order (posterior-spec §3, §12), a one-bin state (Local, No-Spike) one column, a
 * spatial state (and a Local with a position std) one column per position bin. Checked against the file's width, so a summary and
 * files that disagree are refused rather than drawn wrong.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBoundedJson } from '../../../shared/boundedJson';
import { AppError } from '../../../shared/errors';
import { readUntrustedText } from '../../data';
import { posteriorUnderMethodNames } from '../../../shared/posteriorMethodNames';
import { NON_LOCAL_STATES, ONE_BIN_STATES } from '../../../shared/posteriorView';
import { DECODE_SUMMARY_FILE, RUN_FILES, type DecodeSummary, type PosteriorSummary } from '../../engineProtocol';

/** decode.json is a few kilobytes; far more is not one the decode wrote */
const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;
/** a run's report.json: stage tables and findings, megabytes at most */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

export interface PosteriorColumns {
  model: string;
  states: string[];
  /** position bins of one spatial state */
  nBins: number;
  /**
   * The spatial states whose bins the view adds up, with the column their first bin is in. For the
   * detector only the two non-local states: the Local state is the animal where it is, and a lab
   * reads the detector's map for where the non-local content points.
   */
  shown: { state: string; firstColumn: number }[];
  /** column index (in the state probabilities file) of each non-local state; empty for the decoder */
  nonLocalStateIndices: number[];
}

/** A posterior summary as a file holds it, checked for what the view reads; null when there is none. */
function checkedPosterior(p: unknown, file: string): PosteriorSummary | null {
  if (!p || typeof p !== 'object') return null;
  const summary = p as Partial<PosteriorSummary>;
  const states = summary.states;
  const statesOk = Array.isArray(states) && states.length > 0 && states.length <= 64 && states.every((s) => typeof s === 'string' && s.length <= 80);
  if (!statesOk || !Number.isInteger(summary.nStateBins) || typeof summary.model !== 'string') {
    throw new AppError('IO', `${file}: its posterior does not say its states and state bins; run the decode again.`, { file, key: 'posterior' });
  }
  return posteriorUnderMethodNames(p as PosteriorSummary);
}

/** decode.json's posterior (a decode run); null when there is no such file or it has none. */
async function decodePosterior(runDir: string): Promise<PosteriorSummary | null> {
  const file = join(runDir, DECODE_SUMMARY_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  if (text.length > MAX_SUMMARY_BYTES) throw new AppError('IO', `${file} is ${text.length} bytes, not a summary the decode wrote.`, { file });
  let summary: Partial<DecodeSummary>;
  try {
    summary = JSON.parse(text) as Partial<DecodeSummary>;
  } catch (e) {
    throw new AppError('IO', `${file} is not JSON (${(e as Error).message}); run the decode again.`, { file });
  }
  return checkedPosterior(summary.posterior, file);
}

/** report.json's posterior (a profiling run with `--model`); null when the report is absent or has none. */
async function reportPosterior(runDir: string): Promise<PosteriorSummary | null> {
  const file = join(runDir, RUN_FILES.report);
  let text: string;
  try {
    text = await readUntrustedText(file, { maxBytes: MAX_REPORT_BYTES, within: runDir });
  } catch (e) {
    if (e instanceof AppError && e.code === 'NOT_FOUND') return null;
    throw e;
  }
  const report = parseBoundedJson(text, file) as { posterior?: unknown } | null;
  return checkedPosterior(report?.posterior, file);
}

/**
 * The run's posterior summary: from decode.json for a decode, else from report.json for a profiling
 * run that computed one; null when the run has none (not asked for, or --model none).
 */
export async function readPosteriorSummary(runDir: string): Promise<PosteriorSummary | null> {
  return (await decodePosterior(runDir)) ?? (await reportPosterior(runDir));
}

/**
 * The states of one column each in this posterior: Local spans the grid like the spatial states
 * where the decode gave it a position std (NLD's multi-bin Local), which its parameters then say.
 */
function oneBinStates(summary: PosteriorSummary): readonly string[] {
  return summary.parameters?.localPositionStd !== undefined ? ONE_BIN_STATES.filter((s) => s !== 'Local') : ONE_BIN_STATES;
}

/** The columns of each state, given the width of the posterior files; throws IO where they do not fit. */
export function posteriorColumns(summary: PosteriorSummary, fileColumns: number, file: string): PosteriorColumns {
  const { states } = summary;
  const singles = oneBinStates(summary);
  const oneBin = states.filter((s) => singles.includes(s)).length;
  const spatial = states.length - oneBin;
  const nBins = spatial > 0 ? (fileColumns - oneBin) / spatial : 0;
  if (spatial === 0 || !Number.isInteger(nBins) || nBins < 1 || fileColumns !== summary.nStateBins) {
    throw new AppError('IO', `${file} has ${fileColumns} columns, which do not fit the states ${states.join(', ')} ` +
      `(${summary.nStateBins} state bins in ${DECODE_SUMMARY_FILE}); run the decode again.`, { file });
  }
  const firstColumns: number[] = [];
  let column = 0;
  for (const s of states) {
    firstColumns.push(column);
    column += singles.includes(s) ? 1 : nBins;
  }
  const nonLocalStateIndices = states.flatMap((s, i) => (NON_LOCAL_STATES.includes(s) ? [i] : []));
  const spatialIndices = states.flatMap((s, i) => (singles.includes(s) ? [] : [i]));
  const shownIndices = nonLocalStateIndices.length > 0 ? nonLocalStateIndices : spatialIndices;
  return {
    model: summary.model,
    states,
    nBins,
    shown: shownIndices.map((i) => ({ state: states[i]!, firstColumn: firstColumns[i]! })),
    nonLocalStateIndices,
  };
}
