/**
 * Test helpers: writes NWB-layout HDF5 files with h5wasm from a Dataset's arrays, with the marks in
 * any of the forms the importer reads (ragged Units column, spyglass (1, N, C), FeatureExtraction,
 * SpikeEventSeries). Used only by this folder's tests.
 */
import type { Group as H5Group } from 'h5wasm/node';
import type { Dataset } from '../../../shared/dataset';
import { h5Library } from './h5';

export type MarkLayout = 'ragged' | 'spyglass' | 'featureExtraction' | 'spikeEventSeries';

export interface NwbWriteOptions {
  layout: MarkLayout;
  /** electrodes written to this file (default all) */
  electrodes?: number[];
  /** write the position series (default true) */
  position?: boolean;
  /** data are written so that data × conversion is the position in `positionUnit` ('cm' or 'meters'; default 1, 'cm') */
  positionConversion?: number;
  positionUnit?: string;
  referenceTime?: string;
  /** write decoding spikes as a second source and decoding position under /scratch (default: when the dataset has them) */
  decoding?: boolean;
  /** write the decoding bins and the interior place grid under /scratch */
  extras?: boolean;
  /** SpikeEventSeries data in volts (marks × 1e-6) instead of microvolts */
  volts?: boolean;
}

function ensure(root: H5Group, path: string, types: Record<string, string> = {}): H5Group {
  let g = root;
  let at = '';
  for (const part of path.split('/').filter(Boolean)) {
    at += `/${part}`;
    g = g.keys().includes(part) ? (g.get(part) as H5Group) : g.create_group(part);
    if (types[at] && !g.attrs.neurodata_type) g.create_attribute('neurodata_type', types[at]!);
  }
  return g;
}

function f8(g: H5Group, name: string, data: Float64Array, shape: number[] = [data.length]) {
  return g.create_dataset({ name, data, shape, dtype: '<d' });
}

function i8(g: H5Group, name: string, values: number[]) {
  return g.create_dataset({ name, data: BigInt64Array.from(values.map(BigInt)), shape: [values.length], dtype: '<q' });
}

function writePosition(root: H5Group, where: string, time: Float64Array, values: Float64Array, dims: number, o: NwbWriteOptions, container: string): void {
  const g = ensure(root, where, { [where.slice(0, where.lastIndexOf('/'))]: container, [where]: 'SpatialSeries' });
  const factor = o.positionConversion ?? 1;
  const perCm = o.positionUnit === 'meters' ? 100 : 1;
  const data = factor === 1 && perCm === 1 ? values : values.map((v) => v / perCm / factor);
  const d = f8(g, 'data', data, [time.length, dims]);
  d.create_attribute('conversion', factor);
  d.create_attribute('unit', o.positionUnit ?? 'cm');
  f8(g, 'timestamps', time);
  g.create_dataset({ name: 'reference_frame', data: 'track start' });
}

interface Spikes {
  times: Float64Array;
  features: Float64Array;
  nFeatures: number;
}

function writeTable(root: H5Group, path: string, spikes: Spikes[], column: string, form: 'ragged' | 'spyglass'): void {
  const g = ensure(root, path, { [path]: 'Units' });
  const ends: number[] = [];
  let n = 0;
  for (const s of spikes) ends.push((n += s.times.length));
  const times = new Float64Array(n);
  const width = spikes[0]?.nFeatures ?? 1;
  const feats = new Float64Array(n * width);
  let at = 0;
  for (const s of spikes) {
    times.set(s.times, at);
    feats.set(s.features, at * width);
    at += s.times.length;
  }
  f8(g, 'spike_times', times);
  i8(g, 'spike_times_index', ends);
  i8(g, 'id', spikes.map((_, i) => i));
  if (form === 'ragged') {
    f8(g, column, feats, [n, width]);
    g.create_dataset({ name: `${column}_index`, data: Uint32Array.from(ends), shape: [ends.length], dtype: '<I' });
  } else {
    f8(g, column, feats, [1, n, width]);
  }
}

function writeFeatureExtraction(root: H5Group, path: string, s: Spikes): void {
  const g = ensure(root, path, { [path]: 'FeatureExtraction' });
  f8(g, 'times', s.times);
  f8(g, 'features', s.features, [s.times.length, s.nFeatures, 1]);
  g.create_dataset({ name: 'electrodes', data: Int32Array.from({ length: s.nFeatures }, (_, i) => i), shape: [s.nFeatures], dtype: '<i' });
  g.create_dataset({ name: 'description', data: ['amplitude'] });
}

/** three samples per channel; the middle one (S // 2) holds the mark */
function writeSpikeEvents(root: H5Group, path: string, s: Spikes, volts: boolean): void {
  const g = ensure(root, path, { [path]: 'SpikeEventSeries' });
  const n = s.times.length;
  const data = new Float64Array(n * s.nFeatures * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < s.nFeatures; c++) {
      const v = s.features[i * s.nFeatures + c]! * (volts ? 1e-6 : 1);
      data.set([v / 2, v, v / 3], (i * s.nFeatures + c) * 3);
    }
  }
  const d = f8(g, 'data', data, [n, s.nFeatures, 3]);
  d.create_attribute('conversion', 1);
  d.create_attribute('unit', volts ? 'volts' : 'microvolts');
  f8(g, 'timestamps', s.times);
}

function writeMarks(root: H5Group, ds: Dataset, o: NwbWriteOptions, which: number[], role: 'encoding' | 'decoding'): void {
  const spikes = which.map((e): Spikes => {
    const el = ds.electrodes[e]!;
    return role === 'encoding'
      ? { times: el.encodingSpikeTimes, features: el.encodingFeatures, nFeatures: el.nFeatures }
      : { times: el.decodingSpikeTimes, features: el.decodingFeatures, nFeatures: el.nFeatures };
  });
  const prefix = role === 'encoding' ? '' : 'decoding_';
  if (o.layout === 'ragged') writeTable(root, `/processing/ecephys/${prefix}marks`, spikes, 'spike_waveform_features', 'ragged');
  else if (o.layout === 'spyglass') writeTable(root, role === 'encoding' ? '/units' : '/scratch/decoding_units', spikes, 'amplitude', 'spyglass');
  else if (o.layout === 'featureExtraction') spikes.forEach((s, i) => writeFeatureExtraction(root, `/processing/ecephys/${prefix}features_${which[i]}`, s));
  else spikes.forEach((s, i) => writeSpikeEvents(root, `/processing/ecephys/${prefix}events_${which[i]}`, s, o.volts ?? false));
}

/** Writes `ds` (or some of its electrodes) as an NWB-layout HDF5 file at `path`. */
export async function writeNwb(ds: Dataset, path: string, o: NwbWriteOptions): Promise<void> {
  const lib = await h5Library();
  const f = new lib.File(path, 'w');
  try {
    f.create_attribute('nwb_version', '2.7.0');
    f.create_attribute('neurodata_type', 'NWBFile');
    f.create_dataset({ name: 'identifier', data: ds.name });
    f.create_dataset({ name: 'session_start_time', data: '2024-01-01T00:00:00+00:00' });
    f.create_dataset({ name: 'timestamps_reference_time', data: o.referenceTime ?? '2024-01-01T00:00:00+00:00' });
    ensure(f, '/processing/behavior', { '/processing/behavior': 'ProcessingModule' });
    if (o.position !== false) writePosition(f, '/processing/behavior/position/series', ds.positionTime, ds.position, ds.positionDims, o, 'Position');
    const decoding = o.decoding ?? ds.electrodes.some((e) => e.decodingSpikeTimes !== e.encodingSpikeTimes);
    if (o.position !== false && decoding && ds.decodingPositionTime && ds.decodingPosition) {
      writePosition(f, '/scratch/decoding_position/series', ds.decodingPositionTime, ds.decodingPosition, ds.positionDims, o, 'Position');
    }
    const which = o.electrodes ?? ds.electrodes.map((_, i) => i);
    if (which.length > 0) {
      writeMarks(f, ds, o, which, 'encoding');
      if (decoding) writeMarks(f, ds, o, which, 'decoding');
    }
    if (o.extras) {
      const s = ensure(f, '/scratch/layout');
      f8(s, 'time', ds.time);
      f8(s, 'place_bin_centers', ds.placeBinCenters, [ds.placeBinCenters.length / ds.positionDims, ds.positionDims]);
    }
  } finally {
    f.close();
  }
}
