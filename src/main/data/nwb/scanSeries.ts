/**
 * Describes one time series found by the scan without loading it whole: its time source, time range,
 * median sampling rate and NaN share (data read in bounded slices, counted, then dropped).
 */
import type { Dataset as H5Dataset, Group as H5Group } from 'h5wasm/node';
import { getDataset, childPath, type H5Handle } from './h5';
import { attrNumber, datasetMeta, MAX_SLICE_BYTES, readRows } from './h5read';
import type { TimeSource } from './scanTypes';

/** median step from at most this many leading samples */
const RATE_SAMPLES = 10_001;

/** timestamps, or starting_time + rate, of a TimeSeries-like group; null when it has neither */
export function timeSourceOf(h: H5Handle, g: H5Group, nRows: number, timestampsName = 'timestamps'): TimeSource | null {
  const ts = getDataset(h, childPath(g.path, timestampsName));
  if (ts) {
    const meta = datasetMeta(h, ts);
    if (meta.numeric && meta.shape.length === 1) return { kind: 'timestamps', path: ts.path, n: meta.shape[0]! };
    return null;
  }
  const start = getDataset(h, childPath(g.path, 'starting_time'));
  if (!start) return null;
  const rate = attrNumber(h, start, 'rate');
  const t0 = readRows(h, start)[0];
  if (rate === undefined || !(rate > 0) || t0 === undefined) return null;
  return { kind: 'rate', startingTime: t0, rateHz: rate, n: nRows };
}

/** the times of rows [a, b) of a series */
export function readTimes(h: H5Handle, time: TimeSource, a = 0, b = time.n): Float64Array {
  if (time.kind === 'rate') {
    const out = new Float64Array(Math.max(0, b - a));
    for (let i = 0; i < out.length; i++) out[i] = time.startingTime + (a + i) / time.rateHz;
    return out;
  }
  const ds = getDataset(h, time.path);
  return ds ? readRows(h, ds, a, b) : new Float64Array(0);
}

export function timeRangeOf(h: H5Handle, time: TimeSource): [number, number] | null {
  if (time.n === 0) return null;
  const first = readTimes(h, time, 0, 1)[0]!;
  const last = readTimes(h, time, time.n - 1, time.n)[0]!;
  if (!Number.isFinite(first) || !Number.isFinite(last)) return null;
  return [Math.min(first, last), Math.max(first, last)];
}

export function medianRateOf(h: H5Handle, time: TimeSource): number | null {
  if (time.kind === 'rate') return time.rateHz;
  const t = readTimes(h, time, 0, Math.min(time.n, RATE_SAMPLES));
  const steps: number[] = [];
  for (let i = 1; i < t.length; i++) {
    const d = t[i]! - t[i - 1]!;
    if (Number.isFinite(d)) steps.push(d);
  }
  if (steps.length === 0) return null;
  steps.sort((x, y) => x - y);
  const median = steps[Math.floor(steps.length / 2)]!;
  return median > 0 ? 1 / median : null;
}

/** share (0..100) of rows holding any NaN, counted slice by slice */
export function nanPercentOf(h: H5Handle, data: H5Dataset): number | null {
  const meta = datasetMeta(h, data);
  if (!meta.numeric || meta.shape.length === 0) return null;
  const rows = meta.shape[0]!;
  if (rows === 0) return 0;
  const width = meta.shape.slice(1).reduce((x, y) => x * y, 1);
  const step = Math.max(1, Math.floor(MAX_SLICE_BYTES / Math.max(1, width * 8)));
  let nanRows = 0;
  for (let r = 0; r < rows; r += step) {
    const part = readRows(h, data, r, Math.min(rows, r + step));
    for (let i = 0; i < part.length; i += width) {
      for (let j = 0; j < width; j++) {
        if (Number.isNaN(part[i + j]!)) {
          nanRows++;
          break;
        }
      }
    }
  }
  return (100 * nanRows) / rows;
}
