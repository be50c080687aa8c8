/**
 * The position track on the host, in float64 because times (epoch seconds) do not fit float32:
 * spike-to-row mapping, linear interpolation of positions with the spec's NaN and extrapolation
 * rules, rows without NaN, and the model layer's training selection.
 */
import { AppError } from '../../../shared/errors';
import { upperBound } from '../../../shared/sortedSearch';
import { gather } from './rowSelection';

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
  // spike times come in order: each search starts from the last answer (a production tetrode has tens of
  // thousands of spikes against hundreds of thousands of samples; a search from scratch misses the cache)
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
