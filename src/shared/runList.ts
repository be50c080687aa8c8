/**
 * The run history as the API lists it: one entry per recorded run (what index.json holds too), and
 * the page of them that listRunPage answers for a view of a large runs folder, each run of it that
 * ended early with how far it got.
 */
import type { SerializedError } from './errors';
import type { RunStatus } from './events';
import { formatMs } from './format';
import type { ProgressInfo } from './progress';

export interface RunHeadline {
  strategy: string;
  encodeMedianMs?: number;
  decodeMedianMs?: number;
  totalMedianMs?: number;
  /**
   * The times are of one call, the first (cold: compilation included), not a median of warm
   * repeats: the run stopped before its repeats, or made one call (a decode). Absent in entries
   * written before it was said.
   */
  firstCallOnly?: boolean;
}

/** "reference 25.6 ms", "reference 25.6 ms (first call)": a headline's time as every run list says it; undefined without one */
export function headlineTimeText(h: RunHeadline): string | undefined {
  const ms = h.totalMedianMs ?? h.decodeMedianMs;
  if (ms === undefined) return undefined;
  return `${h.strategy} ${formatMs(ms)}${h.firstCallOnly ? ' (first call)' : ''}`;
}

export interface RunIndexEntry {
  id: string;
  status: RunStatus;
  createdAt: string;
  finishedAt?: string;
  label?: string;
  dataset: string;
  backend: string;
  strategies: string[];
  headline: RunHeadline[];
  error?: SerializedError;
}

/** The order every listing keeps: newest first, ties by id, newest first too (ids begin with their creation time). */
export function compareEntries(a: RunIndexEntry, b: RunIndexEntry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id.localeCompare(a.id);
}

/** the most runs one listRunPage answer holds */
export const MAX_RUN_PAGE = 1000;
/** runs a listRunPage answer holds when the request does not say */
export const DEFAULT_RUN_PAGE = 100;

/** Which runs listRunPage answers: `limit` (1 to MAX_RUN_PAGE, default DEFAULT_RUN_PAGE) from the `offset`th (default 0). */
export interface RunPageRequest {
  offset?: number;
  limit?: number;
}

/**
 * A run as a page of the history lists it: its entry and, for a run that ended early (cancelled
 * or failed), the last progress it saved, as its terminal last read it. The service reads that
 * from the run's folder for the page asked for; the index never keeps it.
 */
export interface ListedRun extends RunIndexEntry {
  stoppedAt?: ProgressInfo;
}

/** A page of the run history, in listRuns's order (newest first), and how many runs there are in all. */
export interface RunPage {
  runs: ListedRun[];
  /** the position of runs[0] in the whole list */
  offset: number;
  total: number;
}

/** the data-format catalogue's error codes (E001 … E090): what the loaders refuse a file for */
const DATA_ERROR_CODE = /^E\d{3}$/;

/**
 * Whether a run is an input the loaders refused: it failed on a data-format error before it
 * measured anything. It has nothing to show or compare, so the run pickers leave it out; the run
 * list keeps it, saying "refused" and why. Its stored status stays `failed` (one status for every
 * reader); this is the one test every reader uses to tell it from a run that broke while working.
 */
export function isRefusedInput(entry: Pick<RunIndexEntry, 'status' | 'error' | 'headline'>): boolean {
  if (entry.status !== 'failed' || entry.error === undefined || !DATA_ERROR_CODE.test(entry.error.code)) return false;
  return entry.headline.every((h) => h.encodeMedianMs === undefined && h.decodeMedianMs === undefined && h.totalMedianMs === undefined);
}

/** A run's status as a list shows it: `refused` for an input the loaders refused, else the stored status. */
export function statusWord(entry: Pick<RunIndexEntry, 'status' | 'error' | 'headline'>): string {
  return isRefusedInput(entry) ? 'refused' : entry.status;
}
