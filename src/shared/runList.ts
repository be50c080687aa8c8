/**
 * The run history as the API lists it: one entry per recorded run (what index.json holds too), and
 * the page of them that listRunPage answers for a view of a large runs folder.
 */
import type { SerializedError } from './errors';
import type { RunStatus } from './events';

export interface RunHeadline {
  strategy: string;
  encodeMedianMs?: number;
  decodeMedianMs?: number;
  totalMedianMs?: number;
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

/** A page of the run history, in listRuns's order (newest first), and how many runs there are in all. */
export interface RunPage {
  runs: RunIndexEntry[];
  /** the position of runs[0] in the whole list */
  offset: number;
  total: number;
}
