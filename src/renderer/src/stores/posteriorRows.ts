/**
 * Pure helpers of the posterior stores: reviving an answer that crossed the WebSocket (NaN arrives
 * as null), the sizes asked for, where a time row falls among a view's displayed rows, and the
 * non-local periods as table rows (in the decode's time rows) and as bands (in a view's displayed rows).
 */
import { markRaw } from 'vue';
import type { PosteriorView } from '../../../shared/posteriorView';
import type { PosteriorMap } from '../../../shared/posteriorViewMap';
import { nonLocalPeriods, type NonLocalPeriod } from '../lib/nonLocalPeriods';

/** displayed rows of the whole decode, which the period table is read from: the most the service sends */
export const POSTERIOR_OVERVIEW_ROWS = 4000;
/**
 * The whole decode is asked for its state probabilities and times, not its raster: one column
 * keeps that answer a few hundred kilobytes where 4000 rows × 500 columns would be tens of megabytes.
 */
export const POSTERIOR_OVERVIEW_COLS = 1;
/** displayed rows of the range the charts show */
export const POSTERIOR_DETAIL_ROWS = 2000;
export const POSTERIOR_COLS = 500;
export const DEFAULT_NON_LOCAL_THRESHOLD = 0.8;

const num = (xs: readonly (number | null)[]): number[] => xs.map((x) => x ?? Number.NaN);

export function revivedPosterior(v: PosteriorView): PosteriorView {
  const out: PosteriorView = { ...v, values: num(v.values), time: num(v.time), binCenters: num(v.binCenters), mapPosition: num(v.mapPosition) };
  if (v.truePosition) out.truePosition = num(v.truePosition);
  if (v.mapPositionY) out.mapPositionY = num(v.mapPositionY);
  if (v.truePositionY) out.truePositionY = num(v.truePositionY);
  if (v.grid) out.grid = { shape: v.grid.shape, x: num(v.grid.x), y: num(v.grid.y) };
  if (v.stateProbabilities) out.stateProbabilities = v.stateProbabilities.map(num);
  if (v.nonLocalProbability) out.nonLocalProbability = num(v.nonLocalProbability);
  return markRaw(out);
}

/** a map that crossed the WebSocket, its nulls NaN again */
export function revivedMap(m: PosteriorMap): PosteriorMap {
  const pair = (p: readonly (number | null)[]): [number, number] => [p[0] ?? Number.NaN, p[1] ?? Number.NaN];
  const out: PosteriorMap = { ...m, values: num(m.values), x: num(m.x), y: num(m.y), mapPosition: pair(m.mapPosition) };
  if (m.truePosition) out.truePosition = pair(m.truePosition);
  if (m.trail) out.trail = { x: num(m.trail.x), y: num(m.trail.y) };
  if (m.stateProbabilities) out.stateProbabilities = num(m.stateProbabilities);
  return markRaw(out);
}

/** the decode's time rows per second, from a view's times (1 where they say nothing) */
export function rowsPerSecond(view: PosteriorView): number {
  const last = view.rows - 1;
  const firstRow = timeRowsOf(view, last)[0] - view.startRow;
  const seconds = view.time[last]! - view.time[0]!;
  return last > 0 && seconds > 0 && Number.isFinite(seconds) ? firstRow / seconds : 1;
}

/** the displayed row of a view that holds a time row; null outside the view's rows */
export function displayedRowOf(view: PosteriorView, row: number): number | null {
  if (row < view.startRow || row >= view.endRow) return null;
  return Math.min(view.rows - 1, Math.floor(((row - view.startRow) * view.rows) / (view.endRow - view.startRow)));
}

/** the time rows [from, to) that displayed row i of a view stands for */
export function timeRowsOf(view: PosteriorView, i: number): [number, number] {
  const n = view.endRow - view.startRow;
  return [view.startRow + Math.floor((i * n) / view.rows), view.startRow + Math.floor(((i + 1) * n) / view.rows)];
}

/** a period in the decode's own time rows, for the table and for zooming to it */
export interface PeriodRow extends NonLocalPeriod {
  /** the decode's time rows [firstRow, endTimeRow) */
  firstRow: number;
  endTimeRow: number;
}

/** the periods of a view; empty for a model without non-local states */
export function periodsOf(view: PosteriorView | null, threshold: number): PeriodRow[] {
  if (!view?.nonLocalProbability) return [];
  return nonLocalPeriods(view.time, view.nonLocalProbability, threshold).map((p) => ({
    ...p,
    firstRow: timeRowsOf(view, p.startRow)[0],
    endTimeRow: timeRowsOf(view, p.endRow - 1)[1],
  }));
}

/** the periods of a view as bands over its displayed rows */
export function bandsOf(view: PosteriorView | null, threshold: number): [number, number][] {
  if (!view?.nonLocalProbability) return [];
  return nonLocalPeriods(view.time, view.nonLocalProbability, threshold).map((p) => [p.startRow, p.endRow]);
}

/** a period with some context either side, so its edges show when zoomed to it */
export function rangeAroundPeriod(p: PeriodRow, nTime: number): [number, number] {
  const pad = Math.max(5, Math.round((p.endTimeRow - p.firstRow) / 2));
  return [Math.max(0, p.firstRow - pad), Math.min(nTime, p.endTimeRow + pad)];
}
