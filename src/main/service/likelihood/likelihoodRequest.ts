/**
 * The runtime check of a LikelihoodRequest: which rows of a saved likelihood to show and how many
 * displayed rows and columns they may become. The limits keep one answer small enough to send and
 * draw (at most MAX_LIKELIHOOD_ROWS × MAX_LIKELIHOOD_COLS numbers); whether the rows exist is
 * checked against the file (likelihoodView.ts), which this check has not opened.
 */
import type { LikelihoodRequest } from '../../../shared/api';
import { badRequest, wholeNumberIn } from '../../../shared/requestChecks';

/** displayed rows when the request names none: about one per pixel of a wide heatmap */
export const DEFAULT_LIKELIHOOD_ROWS = 1000;
export const DEFAULT_LIKELIHOOD_COLS = 500;
export const MAX_LIKELIHOOD_ROWS = 4000;
export const MAX_LIKELIHOOD_COLS = 1000;
/** far beyond any recording (a row per 2 ms for a year is 1.6e10), but a bound all the same */
export const MAX_LIKELIHOOD_ROW_INDEX = 1e12;

/** a request with every key filled in, the row range still to be checked against the file (endRow undefined: to the last row) */
export type CheckedLikelihoodRequest = Required<Omit<LikelihoodRequest, 'endRow'>> & { endRow: number | undefined };

const KEYS: readonly string[] = ['startRow', 'endRow', 'maxRows', 'maxCols', 'relative'];


export function likelihoodRequest(v: unknown): CheckedLikelihoodRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw badRequest('request', 'expected { startRow?, endRow?, maxRows?, maxCols?, relative? } (an empty object shows the whole decode)');
  }
  const r = v as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw badRequest(`request.${unknown[0]}`, `is not a likelihood request key; expected one of ${KEYS.join(', ')}`);
  const startRow = r.startRow === undefined ? 0 : wholeNumberIn(r.startRow, 'request.startRow', 0, MAX_LIKELIHOOD_ROW_INDEX);
  const endRow = r.endRow === undefined ? undefined : wholeNumberIn(r.endRow, 'request.endRow', 1, MAX_LIKELIHOOD_ROW_INDEX);
  if (endRow !== undefined && endRow <= startRow) throw badRequest('request.endRow', `must be after startRow (${startRow}), got ${endRow}`);
  const maxRows = r.maxRows === undefined ? DEFAULT_LIKELIHOOD_ROWS : wholeNumberIn(r.maxRows, 'request.maxRows', 1, MAX_LIKELIHOOD_ROWS);
  const maxCols = r.maxCols === undefined ? DEFAULT_LIKELIHOOD_COLS : wholeNumberIn(r.maxCols, 'request.maxCols', 1, MAX_LIKELIHOOD_COLS);
  if (r.relative !== undefined && typeof r.relative !== 'boolean') throw badRequest('request.relative', `expected true or false, got ${JSON.stringify(r.relative)}`);
  return { startRow, endRow, maxRows, maxCols, relative: r.relative === true };
}
