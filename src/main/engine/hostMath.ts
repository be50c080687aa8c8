/**
 * Float64 host-side pieces of the likelihood that are bookkeeping rather than kernels: interval
 * filters, linear interpolation with the spec's NaN and extrapolation rules, spike-to-row mapping,
 * kernel widths. Kept on the host in float64 because times (epoch seconds) do not fit float32.
 */
import { AppError } from '../../shared/errors';
import { upperBound } from '../../shared/sortedSearch';
import { EPS } from './model';

/** Indices of values with lo ≤ v ≤ hi (closed on both ends; NaN never passes). */
export function inBoundsIndices(values: Float64Array, lo: number, hi: number): Int32Array {
  // written into a typed array of the largest size and cut: a production tetrode has 85 000 spikes
  const out = new Int32Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v >= lo && v <= hi) out[n++] = i;
  }
  return n === values.length ? out : out.slice(0, n);
}

/**
 * Rows idx of values; values itself when idx takes every row in order (every spike in bounds, the
 * usual case), which callers only read.
 */
export function gatherOrAll(values: Float64Array, idx: Int32Array, width = 1): Float64Array {
  return idx.length * width === values.length ? values : gather(values, idx, width);
}

export function gather(values: Float64Array, idx: Int32Array, width = 1): Float64Array {
  const out = new Float64Array(idx.length * width);
  for (let k = 0; k < idx.length; k++) {
    const src = idx[k]! * width;
    for (let j = 0; j < width; j++) out[k * width + j] = values[src + j]!;
  }
  return out;
}

/**
 * Output row of each spike (spec §4.4): the number of interior grid points t_1..t_{T-2} that are
 * ≤ u, i.e. numpy.digitize(u, time[1:-1]). Row T-1 never receives a spike.
 */
export function spikeRows(spikeTimes: Float64Array, time: Float64Array): Int32Array {
  const out = new Int32Array(spikeTimes.length);
  const hi = Math.max(time.length - 1, 1);
  // searchsorted(time[1:-1], u, side='right'): how many interior points are ≤ u
  for (let k = 0; k < spikeTimes.length; k++) out[k] = upperBound(time, spikeTimes[k]!, 1, hi) - 1;
  return out;
}

/**
 * upperBound(a, t) (the first index whose value is above t), searched by galloping forward from
 * `hint`, a previous answer for a smaller or equal t: O(log of the distance moved). A t below the
 * hint's interval searches the part before it.
 */
export function upperBoundFrom(a: Float64Array, t: number, hint: number): number {
  const n = a.length;
  const h = Math.min(Math.max(hint, 0), n);
  let lo = 0;
  let hi = h - 1;
  if (h === 0 || a[h - 1]! <= t) {
    // a[lo − 1] ≤ t (or lo = 0) throughout; the answer lies in [lo, bound]
    lo = h;
    // a few steps one by one first: consecutive spikes are usually a few samples apart
    const near = Math.min(n, h + 16);
    while (lo < near && a[lo]! <= t) lo++;
    if (lo < near) return lo;
    const base = lo;
    let bound = lo;
    let step = 1;
    while (bound < n && a[bound]! <= t) {
      lo = bound + 1;
      bound = base + step;
      step *= 2;
    }
    hi = Math.min(bound, n);
  }
  return upperBound(a, t, lo, hi);
}

/**
 * Piecewise-linear interpolation of `position` (n × q, row-major) over `positionTime` at `query`,
 * with linear extrapolation outside and NaN propagating from both neighbours of an interval
 * (scipy.interpolate.interpn with bounds_error=False, fill_value=None; spec §3.3).
 */
export function interpolatePosition(
  positionTime: Float64Array,
  position: Float64Array,
  q: number,
  query: Float64Array,
): Float64Array {
  const n = positionTime.length;
  const out = new Float64Array(query.length * q);
  if (query.length === 0) return out;
  if (n < 2) {
    throw new AppError('E001', `need at least two position samples to interpolate position, got ${n}`, {
      key: 'position_time',
      hint: 'provide a position track with two or more samples',
    });
  }
  // spike times come in order: each search starts from the last answer (85 000 spikes against 600 000
  // samples per production tetrode: a binary search from scratch cost ~95 ns a spike in cache misses)
  let hint = 0;
  for (let k = 0; k < query.length; k++) {
    const t = query[k]!;
    hint = upperBoundFrom(positionTime, t, hint);
    let i = hint - 1;
    if (i < 0) i = 0;
    if (i > n - 2) i = n - 2;
    const t0 = positionTime[i]!;
    const t1 = positionTime[i + 1]!;
    const w = (t - t0) / (t1 - t0);
    for (let j = 0; j < q; j++) {
      out[k * q + j] = position[i * q + j]! * (1 - w) + position[(i + 1) * q + j]! * w;
    }
  }
  return out;
}

/** A scalar σ repeated per dimension, or a per-dimension σ checked against the dimension. */
export function stdVector(std: number | number[], dims: number, what: string, electrode?: string): number[] {
  if (typeof std === 'number') return new Array<number>(dims).fill(std);
  if (std.length === 1 && dims !== 1) return new Array<number>(dims).fill(std[0]!);
  if (std.length !== dims) {
    const where = electrode === undefined ? '' : ` on electrode '${electrode}'`;
    throw new AppError(
      'BAD_ARGUMENT',
      `${what} has ${std.length} entries but${where} there are ${dims} dimensions; give a scalar or one value per dimension`,
      { key: what, electrode },
    );
  }
  return std.slice();
}

/** Rows (and their times) of a position track that contain no NaN. */
export function dropNanRows(
  positionTime: Float64Array,
  position: Float64Array,
  q: number,
): { positionTime: Float64Array; position: Float64Array; dropped: number } {
  const n = positionTime.length;
  const rowHasNan = (i: number): boolean => {
    for (let j = 0; j < q; j++) if (Number.isNaN(position[i * q + j]!)) return true;
    return false;
  };
  // the usual track has no gap: one pass that finds none, no index list (600 000 rows per fit)
  let nanRows = 0;
  for (let i = 0; i < n; i++) if (rowHasNan(i)) nanRows++;
  if (nanRows === 0) return { positionTime, position, dropped: 0 };
  const idx = new Int32Array(n - nanRows);
  for (let i = 0, k = 0; i < n; i++) if (!rowHasNan(i)) idx[k++] = i;
  return {
    positionTime: gather(positionTime, idx),
    position: gather(position, idx, q),
    dropped: nanRows,
  };
}

/** max(log x, LOG_EPS) with NaN kept: safe_log of the spec for x ≥ 0. */
export function safeLog(x: number, logEps: number): number {
  if (Number.isNaN(x)) return x;
  return Math.abs(x) < EPS ? logEps : Math.log(x);
}

/**
 * The model layer's encoding selection (spec §4.7): position rows where is_training holds, and
 * time windows over contiguous training runs, each widened by one position-sample interval (the
 * median step) on both sides, that encoding spikes must fall in.
 */
export function trainingSelection(
  positionTime: Float64Array,
  position: Float64Array,
  q: number,
  isTraining: Uint8Array,
): { positionTime: Float64Array; position: Float64Array; windows: [number, number][] } {
  const n = positionTime.length;
  const steps: number[] = [];
  for (let i = 1; i < n; i++) steps.push(positionTime[i]! - positionTime[i - 1]!);
  steps.sort((a, b) => a - b);
  const step = steps.length > 0 ? steps[steps.length >> 1]! : 0;
  const keep: number[] = [];
  const windows: [number, number][] = [];
  let runStart = -1;
  for (let i = 0; i <= n; i++) {
    const on = i < n && isTraining[i] !== 0;
    if (on) keep.push(i);
    if (on && runStart < 0) runStart = i;
    if (!on && runStart >= 0) {
      windows.push([positionTime[runStart]! - step, positionTime[i - 1]! + step]);
      runStart = -1;
    }
  }
  const idx = Int32Array.from(keep);
  return { positionTime: gather(positionTime, idx), position: gather(position, idx, q), windows };
}

/** Indices of times inside any of the closed windows. */
export function insideWindows(times: Float64Array, windows: [number, number][]): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (windows.some(([a, b]) => t >= a && t <= b)) out.push(i);
  }
  return Int32Array.from(out);
}

/**
 * An electrode's bias per bin, log μ_e − log π_p, −Infinity where the occupancy is not > 0: float32,
 * as the strategies add it to their terms.
 */
export function electrodeBias(meanRate: number, occupancy: Float64Array, logOccupancy: Float64Array): Float32Array {
  const logRate = Math.log(meanRate);
  const bias = new Float32Array(occupancy.length);
  for (let p = 0; p < bias.length; p++) bias[p] = occupancy[p]! > 0 ? logRate - logOccupancy[p]! : -Infinity;
  return bias;
}

/** The largest finite value (−Infinity when none). */
export function maxFinite(values: ArrayLike<number>): number {
  let top = -Infinity;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) top = Math.max(top, values[i]!);
  return top;
}
