/**
 * Spike and mark candidates: Units-like tables (ragged spike_times + spike_times_index, with per-spike
 * columns in ragged or spyglass (1, N, C) form), FeatureExtraction and SpikeEventSeries containers.
 */
import type { Group as H5Group, OutputData, Reference } from 'h5wasm/node';
import { childPath, getDataset, guard, type H5Handle } from './h5';
import { attrNumber, attrText, datasetMeta, readRows, readSmall, readText, type DatasetMeta } from './h5read';
import { timeRangeOf, timeSourceOf } from './scanSeries';
import type { FeatureColumn, FeatureExtractionCandidate, SpikeEventSeriesCandidate, SpikeTableCandidate } from './scanTypes';

/** units with more than this are not probed one by one for their time range */
const MAX_UNITS_FOR_RANGE = 1000;

function datasetsOf(h: H5Handle, g: H5Group): Map<string, DatasetMeta> {
  const out = new Map<string, DatasetMeta>();
  for (const name of guard(h.file, g.path, () => g.keys())) {
    const ds = getDataset(h, childPath(g.path, name));
    if (ds) out.set(name, datasetMeta(h, ds));
  }
  return out;
}

export function isSpikeTable(h: H5Handle, g: H5Group): boolean {
  const keys = guard(h.file, g.path, () => g.keys());
  return keys.includes('spike_times') && keys.includes('spike_times_index');
}

/** end offsets of a VectorIndex as numbers */
export function readIndex(h: H5Handle, path: string): Float64Array {
  const ds = getDataset(h, path);
  return ds ? readSmall(h, ds) : new Float64Array(0);
}

function sameValues(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function featureColumns(h: H5Handle, g: H5Group, sets: Map<string, DatasetMeta>, nSpikes: number, nUnits: number, index: Float64Array): FeatureColumn[] {
  const out: FeatureColumn[] = [];
  for (const [name, meta] of sets) {
    if (name === 'spike_times' || name === 'id' || name.endsWith('_index') || !meta.numeric || meta.shape.length === 0) continue;
    const indexMeta = sets.get(`${name}_index`);
    if (indexMeta) {
      if (meta.shape[0] !== nSpikes || indexMeta.shape.length !== 1 || sets.has(`${name}_index_index`)) continue;
      if (!sameValues(readIndex(h, childPath(g.path, `${name}_index`)), index)) continue;
      out.push({ name, form: 'ragged', shape: meta.shape, nFeatures: meta.shape.slice(1).reduce((x, y) => x * y, 1) });
    } else if (meta.shape.length === 3 && meta.shape[0] === 1 && nUnits === 1 && meta.shape[1] === nSpikes) {
      out.push({ name, form: 'spyglass', shape: meta.shape, nFeatures: meta.shape[2]! });
    }
  }
  return out;
}

/** An object reference in a dataset's value: the one object kind there that is neither an array nor a typed array. */
function isReference(x: OutputData): x is Reference {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !ArrayBuffer.isView(x);
}

function unitGroups(h: H5Handle, g: H5Group, nUnits: number): (string | null)[] {
  const none = new Array<string | null>(nUnits).fill(null);
  const ds = getDataset(h, childPath(g.path, 'electrode_group'));
  if (!ds) return none;
  try {
    const refs = ds.value;
    if (!Array.isArray(refs) || refs.length !== nUnits || !refs.every(isReference)) return none;
    return refs.map((ref) => {
      const target = h.root.dereference(ref);
      const path = target && 'path' in target ? String(target.path) : null;
      return path ? path.slice(path.lastIndexOf('/') + 1) : null;
    });
  } catch {
    return none;
  }
}

function spikeRange(h: H5Handle, timesPath: string, index: Float64Array): [number, number] | null {
  const ds = getDataset(h, timesPath);
  if (!ds || index.length > MAX_UNITS_FOR_RANGE) return null;
  let lo = Infinity;
  let hi = -Infinity;
  let start = 0;
  for (const end of index) {
    if (end > start) {
      for (const v of [readRows(h, ds, start, start + 1)[0]!, readRows(h, ds, end - 1, end)[0]!]) {
        if (Number.isFinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    start = end;
  }
  return lo <= hi ? [lo, hi] : null;
}

export function scanSpikeTable(h: H5Handle, g: H5Group, file: number): SpikeTableCandidate | null {
  const sets = datasetsOf(h, g);
  const times = sets.get('spike_times');
  const indexMeta = sets.get('spike_times_index');
  if (!times || !indexMeta || times.shape.length !== 1 || indexMeta.shape.length !== 1) return null;
  const index = readIndex(h, indexMeta.path);
  const nUnits = index.length;
  const nSpikes = times.shape[0]!;
  const spikesPerUnit = Array.from(index, (end, u) => end - (u === 0 ? 0 : index[u - 1]!));
  const idDs = getDataset(h, childPath(g.path, 'id'));
  const ids = idDs ? Array.from(readSmall(h, idDs)) : [];
  return {
    file,
    path: g.path,
    neurodataType: attrText(h, g, 'neurodata_type') ?? 'DynamicTable',
    nUnits,
    nSpikes,
    spikesPerUnit,
    unitIds: ids.length === nUnits ? ids : spikesPerUnit.map((_, u) => u),
    unitGroups: unitGroups(h, g, nUnits),
    timeRange: spikeRange(h, times.path, index),
    featureColumns: featureColumns(h, g, sets, nSpikes, nUnits, index),
    hasWaveforms: sets.has('waveforms') && sets.has('waveforms_index') && sets.has('waveforms_index_index'),
  };
}

export function scanFeatureExtraction(h: H5Handle, g: H5Group, file: number): FeatureExtractionCandidate | null {
  const times = getDataset(h, childPath(g.path, 'times'));
  const features = getDataset(h, childPath(g.path, 'features'));
  if (!times || !features) return null;
  const shape = datasetMeta(h, features).shape;
  const n = datasetMeta(h, times).shape[0] ?? 0;
  const desc = getDataset(h, childPath(g.path, 'description'));
  const source = { kind: 'timestamps' as const, path: times.path, n };
  return {
    file,
    path: g.path,
    nSpikes: n,
    nChannels: shape[1] ?? 1,
    featuresPerChannel: shape[2] ?? 1,
    featureNames: desc ? readText(h, desc) : [],
    timeRange: timeRangeOf(h, source),
  };
}

export function scanSpikeEventSeries(h: H5Handle, g: H5Group, file: number): SpikeEventSeriesCandidate | null {
  const data = getDataset(h, childPath(g.path, 'data'));
  if (!data) return null;
  const shape = datasetMeta(h, data).shape;
  const time = timeSourceOf(h, g, shape[0] ?? 0);
  if (!time) return null;
  return {
    file,
    path: g.path,
    nSpikes: shape[0] ?? 0,
    nChannels: shape.length === 3 ? shape[1]! : 1,
    nSamples: shape.length === 3 ? shape[2]! : shape[1] ?? 1,
    conversion: attrNumber(h, data, 'conversion') ?? 1,
    unit: attrText(h, data, 'unit'),
    time,
    timeRange: timeRangeOf(h, time),
  };
}

