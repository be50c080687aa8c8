/**
 * The rows of a decoded likelihood: the two levels the likelihood store shows (an overview of the
 * whole decode, a zoomed range), the decode windows, and the first range shown. Pure functions of
 * the answers, so the store's setup only asks and keeps.
 */
import { markRaw } from 'vue';
import type { LikelihoodView, LikelihoodWindows } from '../../../shared/api';
import type { Report } from '../../../shared/report';

/** displayed rows of the overview: about one per pixel of a wide chart */
export const OVERVIEW_ROWS = 1000;
/** displayed rows of the zoomed range: ranges up to this long are shown row by row */
export const DETAIL_ROWS = 2000;
export const MAX_COLS = 500;
/** rows first shown zoomed when the decode has no windows to follow */
export const DEFAULT_ZOOM_ROWS = 1000;

export type RowRange = readonly [number, number];

/** the rows of decode window k (window k is [k·rowsPerWindow, …), the last one runs to the end) */
export function windowRange(windows: LikelihoodWindows, nTime: number, k: number): RowRange {
  const i = Math.min(windows.count - 1, Math.max(0, Math.floor(k)));
  const start = Math.min(nTime - 1, i * windows.rowsPerWindow);
  return [start, i === windows.count - 1 ? nTime : Math.min(nTime, start + windows.rowsPerWindow)];
}

/** the decode window holding a row */
export function windowOf(windows: LikelihoodWindows, row: number): number {
  return Math.min(windows.count - 1, Math.max(0, Math.floor(row / windows.rowsPerWindow)));
}

/** whole rows inside [0, nTime), at least one row, keeping the range's length where it can */
export function clampRange(start: number, end: number, nTime: number): RowRange {
  const length = Math.min(nTime, Math.max(1, Math.round(end) - Math.round(start)));
  const s = Math.min(nTime - length, Math.max(0, Math.round(start)));
  return [s, s + length];
}

/** a range of the given length centred on a row */
export function rangeAround(row: number, length: number, nTime: number): RowRange {
  return clampRange(row - Math.floor(length / 2), row - Math.floor(length / 2) + length, nTime);
}

/** the strategies a run's report lists as finished, those that saved a likelihood first */
export function likelihoodChoices(report: Report | null): string[] {
  const list = report?.strategies.filter((s) => s.status === 'ok') ?? [];
  return [...list.filter((s) => s.likelihoodFile), ...list.filter((s) => !s.likelihoodFile)].map((s) => String(s.strategy));
}

/** −∞ and NaN arrive over the WebSocket as null: back to numbers the charts can test */
export function revived(v: LikelihoodView): LikelihoodView {
  const num = (xs: readonly (number | null)[], none: number): number[] => xs.map((x) => x ?? none);
  const out: LikelihoodView = {
    ...v,
    values: num(v.values, -Infinity),
    time: num(v.time, Number.NaN),
    binCenters: num(v.binCenters, Number.NaN),
    decodedPosition: num(v.decodedPosition, Number.NaN),
  };
  if (v.truePosition) out.truePosition = num(v.truePosition, Number.NaN);
  return markRaw(out);
}

/** the zoomed range first shown: the rows kept from before where they fit, else every row, else the first window */
export function firstRange(ov: LikelihoodView, keep: RowRange | null): RowRange {
  if (keep && keep[1] <= ov.nTime) return keep;
  if (ov.rowsPerRow <= 1) return [0, ov.nTime];
  if (ov.windows) return windowRange(ov.windows, ov.nTime, 0);
  return [0, Math.min(ov.nTime, DEFAULT_ZOOM_ROWS)];
}
