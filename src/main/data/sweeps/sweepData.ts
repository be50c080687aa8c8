/**
 * The data of a sweep: one clusterless-npz/1 file per value, written into the sweep's folder, so
 * each value runs as an ordinary recorded run on a file (and can be run again from it). A peer
 * preset is generated with the size changed (makePreset's sizes, or its features); a file is cut
 * down: spikes subsampled per electrode in proportion (nested: a smaller value's spikes are among
 * a larger one's, so the points differ by the size only), its first D features, its first N
 * electrodes, or its 1-D place grid rebuilt with N bins. A file can only shrink.
 *
 * The service's writeSweepData wraps this with the runs folder's write errors.
 */
import { join } from 'node:path';
import type { DataSource } from '../../../shared/config';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { MAX_SWEEP_FEATURES, SWEEP_VARIABLE_TEXT, type SweepVariable } from '../../../shared/sweep';
import { writeClusterlessNpz } from '../writers';
import { histogramCounts, linspace } from '../grid';
import { loadDataset } from '../sources';
import { makePreset, Rng, type PresetSizes } from '../presets';

export interface SweepFilesRequest {
  source: DataSource;
  vary: SweepVariable;
  /** ascending positive integers */
  values: readonly number[];
  /** the folder the files go into (inside the sweep's folder) */
  dir: string;
}

/** Runs one file write; the caller's chance to say a failure in its own terms. */
export type GuardWrite = <T>(write: () => Promise<T>) => Promise<T>;

export interface SweepDataFile {
  value: number;
  path: string;
}

/** seeds of the subsampling draws (one stream per electrode): fixed, so a sweep's files are the same every time */
const SUBSAMPLE_SEED = 0x5eed;

const PRESET_SIZE_OF: Partial<Record<SweepVariable, keyof PresetSizes>> = {
  'encoding-spikes': 'meanEncodingSpikes',
  'decoding-spikes': 'meanDecodingSpikes',
  bins: 'nPositionBins',
  electrodes: 'nElectrodes',
};

function tooMany(vary: SweepVariable, value: number, limit: number, what: string): AppError {
  return new AppError('BAD_ARGUMENT',
    `--vary ${vary}=${value}: ${what} has ${limit} ${SWEEP_VARIABLE_TEXT[vary]}${vary.endsWith('spikes') ? ' (mean)' : ''}, and a sweep can only take a file's sizes down; ask for values up to ${limit}.`,
    { key: 'vary', value });
}

/** Indices of k of n items, drawn without replacement, ascending: the first k of one seeded shuffle, so they nest. */
export function nestedSubset(n: number, k: number, seed: number): Uint32Array {
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  const rng = new Rng(seed);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng.random() * (n - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, k).sort();
}

function pick(times: Float64Array, features: Float64Array, nFeatures: number, idx: Uint32Array): [Float64Array, Float64Array] {
  const t = new Float64Array(idx.length);
  const f = new Float64Array(idx.length * nFeatures);
  idx.forEach((i, r) => {
    t[r] = times[i]!;
    f.set(features.subarray(i * nFeatures, (i + 1) * nFeatures), r * nFeatures);
  });
  return [t, f];
}

const spikeCount = (e: ElectrodeData, which: 'encoding' | 'decoding'): number =>
  (which === 'encoding' ? e.encodingSpikeTimes : e.decodingSpikeTimes).length;

function meanSpikes(ds: Dataset, which: 'encoding' | 'decoding'): number {
  return ds.electrodes.reduce((s, e) => s + spikeCount(e, which), 0) / Math.max(1, ds.electrodes.length);
}

/** Each electrode keeps its share of the spikes, so the mean per electrode becomes `target`. */
function subsampleSpikes(ds: Dataset, which: 'encoding' | 'decoding', target: number): Dataset {
  const scale = target / meanSpikes(ds, which);
  const electrodes = ds.electrodes.map((e, i) => {
    const n = spikeCount(e, which);
    // an electrode that had spikes keeps one: an empty one would be a different experiment
    const k = n === 0 ? 0 : Math.min(n, Math.max(1, Math.round(n * scale)));
    const idx = nestedSubset(n, k, SUBSAMPLE_SEED + i);
    if (which === 'encoding') {
      const [t, f] = pick(e.encodingSpikeTimes, e.encodingFeatures, e.nFeatures, idx);
      return { ...e, encodingSpikeTimes: t, encodingFeatures: f };
    }
    const [t, f] = pick(e.decodingSpikeTimes, e.decodingFeatures, e.nFeatures, idx);
    return { ...e, decodingSpikeTimes: t, decodingFeatures: f };
  });
  return { ...ds, electrodes };
}

function firstColumns(values: Float64Array, columns: number, keep: number): Float64Array {
  const rows = values.length / columns;
  const out = new Float64Array(rows * keep);
  for (let r = 0; r < rows; r++) out.set(values.subarray(r * columns, r * columns + keep), r * keep);
  return out;
}

function firstFeatures(ds: Dataset, d: number): Dataset {
  const electrodes = ds.electrodes.map((e) => {
    const encodingFeatures = firstColumns(e.encodingFeatures, e.nFeatures, d);
    const shared = e.decodingFeatures === e.encodingFeatures;
    const decodingFeatures = shared ? encodingFeatures : firstColumns(e.decodingFeatures, e.nFeatures, d);
    return { ...e, nFeatures: d, encodingFeatures, decodingFeatures };
  });
  const w = ds.params.waveformStd;
  return { ...ds, electrodes, params: { ...ds.params, waveformStd: Array.isArray(w) ? w.slice(0, d) : w } };
}

/** The 1-D grid rebuilt as `bins` equal bins over the encoding positions' range; the visited ones are the interior. */
function regrid(ds: Dataset, bins: number, where: string): Dataset {
  if (ds.positionDims !== 1) {
    throw new AppError('BAD_ARGUMENT', `--vary bins: ${where} has ${ds.positionDims}-D positions, and only a 1-D place grid can be rebuilt with another number of bins; vary encoding-spikes, decoding-spikes, features or electrodes instead.`,
      { key: 'vary' });
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of ds.position) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!(hi > lo)) throw new AppError('BAD_ARGUMENT', `--vary bins: ${where} has no range of positions to lay bins over.`, { key: 'vary' });
  const edges = linspace(lo, hi, bins + 1);
  const counts = histogramCounts(ds.position, edges);
  const all = new Float64Array(bins);
  const centers: number[] = [];
  counts.forEach((c, j) => {
    all[j] = (edges[j]! + edges[j + 1]!) / 2;
    if (c > 0) centers.push(all[j]!);
  });
  const placeGrid = { centers: all, interior: Uint8Array.from(counts, (c) => (c > 0 ? 1 : 0)) };
  return { ...ds, placeBinCenters: Float64Array.from(centers), placeGrid, params: { ...ds.params, placeBinSize: (hi - lo) / bins } };
}

/** The largest value a file allows for the variable. */
function fileLimit(ds: Dataset, vary: SweepVariable): number {
  switch (vary) {
    case 'encoding-spikes': return Math.floor(meanSpikes(ds, 'encoding'));
    case 'decoding-spikes': return Math.floor(meanSpikes(ds, 'decoding'));
    case 'features': return Math.min(MAX_SWEEP_FEATURES, ...ds.electrodes.map((e) => e.nFeatures));
    case 'electrodes': return ds.electrodes.length;
    case 'bins': return Number.MAX_SAFE_INTEGER;
  }
}

/** A file's dataset (or the place preset's) cut down to one value of the sweep. */
function cutDown(ds: Dataset, vary: SweepVariable, value: number, where: string): Dataset {
  const out = (() => {
    switch (vary) {
      case 'encoding-spikes': return subsampleSpikes(ds, 'encoding', value);
      case 'decoding-spikes': return subsampleSpikes(ds, 'decoding', value);
      case 'features': return firstFeatures(ds, value);
      case 'electrodes': return { ...ds, electrodes: ds.electrodes.slice(0, value) };
      case 'bins': return regrid(ds, value, where);
    }
  })();
  // the file's expected outputs describe the whole data, not this cut
  const { expected: _expected, ...rest } = out;
  return { ...rest, notes: [...ds.notes, `sweep: ${vary} ${value}, cut down from ${where}`] };
}

function whereOf(source: DataSource): string {
  return source.kind === 'preset' ? `preset:${source.name}` : source.path;
}

function checkValues(req: SweepFilesRequest, limit: number, what: string): void {
  for (const v of req.values) {
    if (v > limit) throw tooMany(req.vary, v, limit, what);
  }
}

/** The dataset of every value, one at a time (a file is read once). */
async function* sweepDatasets(req: SweepFilesRequest): AsyncGenerator<[number, Dataset]> {
  const { source, vary } = req;
  if (vary === 'features') {
    const over = req.values.find((v) => v > MAX_SWEEP_FEATURES);
    if (over !== undefined) throw new AppError('BAD_ARGUMENT', `--vary features=${over}: a sweep goes up to ${MAX_SWEEP_FEATURES} features.`, { key: 'vary', value: over });
  }
  const presetSize = PRESET_SIZE_OF[vary];
  const generated = source.kind === 'preset' && !(source.name === 'place' && vary === 'decoding-spikes');
  if (generated) {
    const base = { seed: source.seed, features: source.features, featureScale: source.featureScale };
    for (const v of req.values) {
      yield [v, makePreset(source.name, presetSize ? { ...base, sizes: { [presetSize]: v } } : { ...base, features: v })];
    }
    return;
  }
  const base = await loadDataset(source);
  const where = whereOf(source);
  if (base.isTraining) {
    throw new AppError('BAD_ARGUMENT', `${where} marks the samples the model is fit on (is_training), which a sweep's data files do not carry; sweep a copy of the file without it.`,
      { key: 'is_training' });
  }
  checkValues(req, fileLimit(base, vary), where);
  for (const v of req.values) yield [v, cutDown(base, vary, v, where)];
}

function baseName(source: DataSource): string {
  const name = source.kind === 'preset' ? source.name : source.path.split(/[\\/]/).pop()!.replace(/\.(npz|nwb|h5|hdf5|recipe\.json)$/i, '');
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'data';
}

/** Writes every value's data file into req.dir (which must exist), checking all values before the first run. */
export async function writeSweepFiles(req: SweepFilesRequest, guardWrite: GuardWrite = (write) => write()): Promise<SweepDataFile[]> {
  const files: SweepDataFile[] = [];
  const stem = baseName(req.source);
  for await (const [value, ds] of sweepDatasets(req)) {
    const path = join(req.dir, `${stem}.${req.vary}-${value}.npz`);
    await guardWrite(() => writeClusterlessNpz(ds, path));
    files.push({ value, path });
  }
  return files;
}
