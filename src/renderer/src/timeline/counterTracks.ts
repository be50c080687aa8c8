/**
 * Counter tracks on the timeline's own time axis, as Perfetto and Tracy show them: memory and
 * tensor counters (and an external engine's own, such as its XLA compilations) pinned above the span tracks, each scaled to its own range over the visible
 * window (a few MB of tensors would lie flat beside hundreds of MB of RSS), drawn as steps (a
 * counter holds its value until the next sample), and read at the pointer.
 */
import { externalEngineOf, memoryAxisOf, memoryColor, memoryLabel, shownMemorySeries, type MemorySeriesInput } from '../charts/memoryOption';
import { xOf, type TimeScale } from './timeScale';

export const COUNTER_TRACK_PX = 30;

export interface CounterTrack {
  label: string;
  color: string;
  /** what the values count: MB, or tensors */
  unit: string;
  points: readonly [number, number][];
}

/**
 * An external engine's own counters ("nld:decoder · xla compilations", value samples), which no
 * memory view shows: a track each, so its compilations line up with its calls.
 */
function engineCounterTracks(series: readonly MemorySeriesInput[]): CounterTrack[] {
  return series
    .filter((s) => s.key === 'value' && s.name.includes(' · ') && s.points.length > 0 && memoryAxisOf(s) === null)
    .map((s) => ({ label: s.name, color: memoryColor(s.name), unit: '', points: s.points }));
}

/**
 * By label, the external engines' process trees after the engine's own counters, which the first
 * tracks shown are for; then the external engines' own counters.
 */
export function counterTracksOf(series: readonly MemorySeriesInput[]): CounterTrack[] {
  const shown = shownMemorySeries(series).filter(({ s }) => s.points.length > 0);
  const external = (x: (typeof shown)[number]): number => (externalEngineOf(x.s) === null ? 0 : 1);
  const memory = [...shown].sort((a, b) => external(a) - external(b))
    .map(({ s, axis }) => ({ label: memoryLabel(s), color: memoryColor(memoryLabel(s)), unit: axis === 'count' ? '' : 'MB', points: s.points }));
  return [...memory, ...engineCounterTracks(series)];
}

/** The index of the last point at or before `us`, −1 when every point is later. */
function lastAtOrBefore(points: readonly [number, number][], us: number): number {
  let [lo, hi] = [0, points.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid]![0] <= us) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The counter's value at `us`: the last sample at or before it (null before the first). */
export function valueAt(points: readonly [number, number][], us: number): number | null {
  const i = lastAtOrBefore(points, us);
  return i < 0 ? null : points[i]![1];
}

/** The samples that shape the visible window: the one in force at its start, those inside it. */
function visible(points: readonly [number, number][], s: TimeScale): [number, number][] {
  const last = lastAtOrBefore(points, s.endUs);
  // every sample after the window: nothing of this counter is in it yet
  if (last < 0) return [];
  return points.slice(Math.max(0, lastAtOrBefore(points, s.startUs)), last + 1) as [number, number][];
}

export interface TrackShape {
  /** the step line's corners, canvas px (x right of the scale's x0, y down from the track's top) */
  corners: [number, number][];
  /** the largest value shown: the track's top (its bottom is 0) */
  max: number;
}

/**
 * The step line of a counter over the visible window in a track `heightPx` tall: its own range
 * (from 0 for megabytes and counts, which the eye reads against 0), at most one rise and fall per
 * pixel column (the column's largest value, so peaks survive), null when nothing is visible.
 */
export function trackShape(points: readonly [number, number][], s: TimeScale, heightPx: number): TrackShape | null {
  const shown = visible(points, s);
  if (shown.length === 0) return null;
  let max = 0;
  for (const [, v] of shown) max = Math.max(max, v);
  const pad = 3;
  const yOf = (v: number): number => (max > 0 ? heightPx - pad - (v / max) * (heightPx - 2 * pad) : heightPx - pad);
  const corners: [number, number][] = [];
  let column = Number.NaN;
  for (const [us, v] of shown) {
    const x = Math.max(s.x0, Math.min(s.x0 + s.widthPx, xOf(s, us)));
    const px = Math.floor(x);
    const y = yOf(v);
    if (px === column && corners.length > 0) {
      // the same pixel column: keep its highest value (the smallest y)
      const lastCorner = corners[corners.length - 1]!;
      lastCorner[1] = Math.min(lastCorner[1], y);
      continue;
    }
    column = px;
    if (corners.length > 0) corners.push([x, corners[corners.length - 1]![1]]);
    corners.push([x, y]);
  }
  corners.push([s.x0 + s.widthPx, corners[corners.length - 1]![1]]);
  return { corners, max };
}

/** A value as the track's label reads it: megabytes to 3 significant digits, counts whole. */
export function counterText(value: number | null, unit: string): string {
  if (value === null) return '–';
  return unit ? `${Number(value.toPrecision(3))} ${unit}` : Math.round(value).toLocaleString('en-US');
}
