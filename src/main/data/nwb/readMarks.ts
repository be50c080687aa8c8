/**
 * Reads one electrode's spike times and marks from a Units-like table (ragged or spyglass column),
 * a FeatureExtraction, or a SpikeEventSeries (marks = each channel's value at the alignment sample),
 * as arrays the npz loader's spike rules can check.
 */
import { AppError } from '../../../shared/errors';
import { num, type NumericArray, type ValidationFindings } from '../validation';
import { childPath, getDataset, getEntity, isGroup, type H5Handle } from './h5';
import { attrNumber, attrText, datasetMeta, MAX_SLICE_BYTES, readRows } from './h5read';
import type { SpikeSource } from './recipe';
import { readIndex } from './scanSpikes';
import { readTimes, timeSourceOf } from './scanSeries';
import { leftOutBecause } from './scan';
import type { NwbScan } from './scanTypes';

export interface SpikeArrays {
  times: NumericArray;
  features: NumericArray;
}

const VOLTS = new Set(['v', 'volt', 'volts']);
const MICROVOLTS = new Set(['uv', 'µv', 'microvolt', 'microvolts']);

function need(h: H5Handle, path: string) {
  const ds = getDataset(h, path);
  if (!ds) throw new AppError('E001', `${h.file}: required dataset '${path}' not found.`, { file: h.file, key: path });
  return ds;
}

function numeric(h: H5Handle, path: string, data: Float64Array, shape: number[]): NumericArray {
  return { key: path, shape, data, descr: `<${datasetMeta(h, need(h, path)).dtype}` };
}

/** keeps the chosen flattened feature columns */
function selectFeatures(data: Float64Array, n: number, width: number, keep: number[] | undefined, key: string, h: H5Handle): { data: Float64Array; width: number } {
  if (!keep) return { data, width };
  const bad = keep.find((j) => j >= width);
  if (bad !== undefined) throw new AppError('BAD_ARGUMENT', `${h.file}: feature ${bad} of '${key}' does not exist (it has ${width}).`, { file: h.file, key });
  const out = new Float64Array(n * keep.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < keep.length; k++) out[i * keep.length + k] = data[i * width + keep[k]!]!;
  return { data: out, width: keep.length };
}

/** sorts spikes merged from several units by time, moving their marks along */
function sortMerged(times: Float64Array, feats: Float64Array, width: number): void {
  const order = Array.from(times, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const t = Float64Array.from(order, (i) => times[i]!);
  const m = new Float64Array(feats.length);
  order.forEach((src, dst) => m.set(feats.subarray(src * width, (src + 1) * width), dst * width));
  times.set(t);
  feats.set(m);
}

function readUnits(h: H5Handle, scans: NwbScan[], s: Extract<SpikeSource, { kind: 'units' }>, notes: string[]): SpikeArrays {
  const table = scans[s.file]?.spikeTables.find((t) => t.path === s.path);
  if (!table) {
    const tables = scans[s.file]?.spikeTables.map((t) => t.path).join(', ') || 'none';
    throw new AppError('E001', `${h.file}: spike table '${s.path}' not found (tables: ${tables}).${leftOutBecause(scans[s.file], s.path)}`, { file: h.file, key: s.path });
  }
  const column = table.featureColumns.find((c) => c.name === s.column);
  if (!column) {
    const have = table.featureColumns.map((c) => c.name).join(', ') || 'none';
    throw new AppError('E001', `${h.file}: '${s.path}' has no per-spike column '${s.column}' aligned with spike_times (per-spike columns: ${have}).`, { file: h.file, key: childPath(s.path, s.column) });
  }
  const index = readIndex(h, childPath(s.path, 'spike_times_index'));
  const timesDs = need(h, childPath(s.path, 'spike_times'));
  const colDs = need(h, childPath(s.path, s.column));
  const parts: { t: Float64Array; m: Float64Array }[] = [];
  for (const row of s.rows) {
    if (row >= table.nUnits) throw new AppError('BAD_ARGUMENT', `${h.file}: row ${row} of '${s.path}' does not exist (it has ${table.nUnits} rows).`, { file: h.file, key: s.path });
    const a = row === 0 ? 0 : index[row - 1]!;
    const b = index[row]!;
    parts.push({ t: readRows(h, timesDs, a, b), m: readRows(h, colDs, a, b, column.form === 'spyglass' ? [0] : []) });
  }
  const n = parts.reduce((x, p) => x + p.t.length, 0);
  const times = new Float64Array(n);
  let feats: Float64Array = new Float64Array(n * column.nFeatures);
  let at = 0;
  for (const p of parts) {
    times.set(p.t, at);
    feats.set(p.m, at * column.nFeatures);
    at += p.t.length;
  }
  if (s.rows.length > 1) {
    sortMerged(times, feats, column.nFeatures);
    notes.push(`${s.path} rows ${s.rows.join(', ')} merged into one electrode and sorted by time`);
  }
  const colPath = childPath(s.path, s.column);
  const sel = selectFeatures(feats, n, column.nFeatures, s.features, colPath, h);
  feats = sel.data;
  return { times: numeric(h, timesDs.path, times, [n]), features: numeric(h, colPath, feats, [n, sel.width]) };
}

function readFeatureExtraction(h: H5Handle, s: Extract<SpikeSource, { kind: 'featureExtraction' }>): SpikeArrays {
  const timesPath = childPath(s.path, 'times');
  const featPath = childPath(s.path, 'features');
  const times = readRows(h, need(h, timesPath));
  const shape = datasetMeta(h, need(h, featPath)).shape;
  const width = shape.slice(1).reduce((x, y) => x * y, 1);
  const sel = selectFeatures(readRows(h, need(h, featPath)), shape[0] ?? 0, width, s.features, featPath, h);
  return { times: numeric(h, timesPath, times, [times.length]), features: numeric(h, featPath, sel.data, [shape[0] ?? 0, sel.width]) };
}

function readSpikeEvents(h: H5Handle, s: Extract<SpikeSource, { kind: 'spikeEventSeries' }>, f: ValidationFindings, notes: string[]): SpikeArrays {
  const dataPath = childPath(s.path, 'data');
  const ds = need(h, dataPath);
  const meta = datasetMeta(h, ds);
  const g = getEntity(h, s.path);
  const time = isGroup(g) ? timeSourceOf(h, g, meta.shape[0] ?? 0) : null;
  if (!time) throw new AppError('E001', `${h.file}: SpikeEventSeries '${s.path}' has neither timestamps nor starting_time + rate.`, { file: h.file, key: s.path });
  const n = meta.shape[0] ?? 0;
  const channels = meta.shape.length === 3 ? meta.shape[1]! : 1;
  const samples = meta.shape.length === 3 ? meta.shape[2]! : meta.shape[1] ?? 1;
  const align = s.alignSample ?? Math.floor(samples / 2);
  if (align >= samples) throw new AppError('BAD_ARGUMENT', `${h.file}: alignment sample ${align} is outside the ${samples} samples of '${dataPath}'.`, { file: h.file, key: dataPath });
  const conversion = attrNumber(h, ds, 'conversion') ?? 1;
  const unit = (attrText(h, ds, 'unit') ?? '').toLowerCase();
  const toUv = s.toMicrovolts ?? VOLTS.has(unit);
  const scale = conversion * (toUv ? 1e6 : 1);
  const marks = new Float64Array(n * channels);
  const step = Math.max(1, Math.floor(MAX_SLICE_BYTES / Math.max(1, channels * samples * 8)));
  for (let a = 0; a < n; a += step) {
    const b = Math.min(n, a + step);
    const w = readRows(h, ds, a, b);
    for (let i = 0; i < b - a; i++) {
      for (let c = 0; c < channels; c++) {
        const v = w[(i * channels + c) * samples + align]! * scale;
        marks[(a + i) * channels + c] = s.peakSign === 'abs' ? Math.abs(v) : v;
      }
    }
  }
  notes.push(`${s.path}: marks are each channel's value at sample ${align} of ${samples}${scale !== 1 ? ` × ${num(scale)}${toUv ? ' (µV)' : ''}` : ''}`);
  if (!toUv && unit !== '' && !MICROVOLTS.has(unit)) f.info('I072', `'${dataPath}' is in '${unit}'; marks are used in that unit.`, { key: dataPath });
  const sel = selectFeatures(marks, n, channels, s.features, dataPath, h);
  const times = readTimes(h, time);
  const timeKey = time.kind === 'timestamps' ? time.path : `${s.path}/starting_time`;
  return { times: { key: timeKey, shape: [n], data: times, descr: '<f8' }, features: { key: dataPath, shape: [n, sel.width], data: sel.data, descr: '<f8' } };
}

/** Reads one spike source; throws AppError when its paths or choices do not fit the file. */
export function readSpikeSource(h: H5Handle, scans: NwbScan[], s: SpikeSource, f: ValidationFindings, notes: string[]): SpikeArrays {
  if (s.kind === 'units') return readUnits(h, scans, s, notes);
  if (s.kind === 'featureExtraction') return readFeatureExtraction(h, s);
  return readSpikeEvents(h, s, f, notes);
}
