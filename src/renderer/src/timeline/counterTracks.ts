/**
 * Counter tracks on the timeline's own time axis, as Perfetto and Tracy show them: memory and
 * tensor counters (and an external engine's own, such as its XLA compilations) pinned above the span tracks, each scaled to its own range over the visible
 * window (a few MB of tensors would lie flat beside hundreds of MB of RSS), drawn as steps (a
 * counter holds its value until the next sample), and read at the pointer. Counters that never
 * moved (a tensor total that stays 0 while the workers hold the tensors) go below those that did,
 * and fold under "show all", as Perfetto leaves empty tracks for the person to open.
 */
import { externalEngineOf, memoryAxisOf, memoryColor, memoryLabel, shownMemorySeries, type MemorySeriesInput } from '../charts/memoryOption';
import { xOf, type TimeScale } from './timeScale';

export const COUNTER_TRACK_PX = 30;

export interface CounterTrack {
  /** the whole label, the track's tooltip and key */
  label: string;
  /** what the label column shows: the label without its qualifier ("engine RSS") */
  name: string;
  /** the qualifier, shown small beneath ("sampled by service"); '' when there is none */
  note: string;
  /** every sample holds the same value (to a thousandth): nothing to read from its shape */
  flat: boolean;
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
    .map((s) => trackOf(s.name, memoryColor(s.name), '', s.points));
}

/**
 * The label in two parts, so the column of 200 px reads it whole: a parenthesised qualifier
 * ("engine RSS (sampled by service)") or an engine's name before " · " ("nld:decoder · xla
 * compilations") goes to the small line beneath.
 */
export function counterLabelParts(label: string): { name: string; note: string } {
  const paren = /^(.+?)\s*\(([^()]+)\)$/.exec(label);
  if (paren) return { name: paren[1]!, note: paren[2]! };
  const cut = label.lastIndexOf(' · ');
  return cut > 0 ? { name: label.slice(cut + 3), note: label.slice(0, cut) } : { name: label, note: '' };
}

/** every value within a thousandth of the largest magnitude of the others (all 0, or constant) */
export function isFlatCounter(points: readonly [number, number][]): boolean {
  let [lo, hi] = [Infinity, -Infinity];
  for (const [, v] of points) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  return points.length === 0 || hi - lo <= 1e-3 * Math.max(Math.abs(lo), Math.abs(hi));
}

function trackOf(label: string, color: string, unit: string, points: readonly [number, number][]): CounterTrack {
  return { label, ...counterLabelParts(label), flat: isFlatCounter(points), color, unit, points };
}

/** Informative tracks first, then the flat ones, each in the order given. */
function flatLast(tracks: CounterTrack[]): CounterTrack[] {
  return [...tracks.filter((t) => !t.flat), ...tracks.filter((t) => t.flat)];
}

/**
 * The tracks shown before the person asks for all: the first `limit` that moved; flat ones only
 * when none moved (then the first), so the top rows always say something.
 */
export function foldedCounterTracks(tracks: readonly CounterTrack[], limit: number): CounterTrack[] {
  const moving = tracks.filter((t) => !t.flat);
  return moving.length > 0 ? moving.slice(0, limit) : tracks.slice(0, Math.min(1, limit));
}

/**
 * By label, the external engines' process trees after the engine's own counters, which the first
 * tracks shown are for; then the external engines' own counters; flat counters after all of them.
 */
export function counterTracksOf(series: readonly MemorySeriesInput[]): CounterTrack[] {
  const shown = shownMemorySeries(series).filter(({ s }) => s.points.length > 0);
  const external = (x: (typeof shown)[number]): number => (externalEngineOf(x.s) === null ? 0 : 1);
  const memory = [...shown].sort((a, b) => external(a) - external(b))
    .map(({ s, axis }) => trackOf(memoryLabel(s), memoryColor(memoryLabel(s)), axis === 'count' ? '' : 'MB', s.points));
  return flatLast([...memory, ...engineCounterTracks(series)]);
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
