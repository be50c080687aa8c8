/**
 * The clusterless-npz/1 loader: reads a .npz into a Dataset, applying every validation rule and
 * collecting all findings before deciding. It reports problems; it never drops samples or spikes.
 */
import { basename } from 'node:path';
import type { ValidationFinding } from '../../../shared/api';
import type { Dataset, ExpectedOutputs } from '../../../shared/dataset';
import { BugError, isAppError } from '../../../shared/errors';
import { ArrayReader, listKeys, checkDataset, count, ValidationFindings, finiteRange } from '../validation';
import { readElectrodes } from './loadElectrodes';
import { readGrid } from './loadGrid';
import { checkParamShapes, readParams } from './loadParams';
import { readPositionSeries } from './loadPosition';
import { readDecodingGrid, readIsTraining } from './loadTiming';
import { openNpz, openNpzBytes, type NpzFile } from '../npz';

export interface NpzInspection {
  dataset: Dataset | null;
  findings: ValidationFinding[];
}

/** how far a load is: reported after each electrode is read and checked */
export interface LoadProgress {
  /** electrodes done so far (1-based count) */
  electrode: number;
  nElectrodes: number;
  name: string;
  /** encoding + decoding spikes read so far */
  spikesRead: number;
}

export interface NpzLoadOptions {
  onProgress?: (p: LoadProgress) => void;
}

async function readExpected(r: ArrayReader, notes: string[]): Promise<ExpectedOutputs | undefined> {
  const keys: [keyof ExpectedOutputs, string][] = [
    ['occupancy', 'occupancy'],
    ['meanRates', 'mean_rates'],
    ['summedGroundProcessIntensity', 'summed_ground_process_intensity'],
    ['logLikelihoodNonlocal', 'log_likelihood_nonlocal'],
    ['logLikelihoodLocal', 'log_likelihood_local'],
  ];
  const out: ExpectedOutputs = {};
  for (const [field, key] of keys) {
    if (!r.has(key)) continue;
    const a = await r.numeric(key);
    if (!a) continue;
    if (field === 'logLikelihoodLocal' && a.data.every((v) => Number.isNaN(v))) {
      notes.push('log_likelihood_local is all NaN (not computed by the reference); skipped');
      continue;
    }
    out[field] = a.data;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** other names trajectories are often saved under (RatInABox's t/pos, for example) */
const ALIASES: Record<string, string[]> = { position_time: ['t', 'times', 'timestamps'], position: ['pos', 'xy', 'positions'] };

function renameHint(keys: string[], key: string): string {
  const alias = ALIASES[key]?.find((a) => keys.includes(a));
  return alias ? ` '${alias}' looks like it; save it as '${key}'.` : '';
}

/** keys that describe a track graph (non_local_detector's Environment) */
const TRACK_GRAPH = /^(track_graph|edge_order|edge_spacing|node_positions)/;

/** The decoding window's own trajectory, when the file has one (both keys or neither). */
async function readDecodingPosition(r: ArrayReader, f: ValidationFindings, unit: string | undefined, encodingDims: number | undefined) {
  if (r.has('decoding_position_time') !== r.has('decoding_position')) {
    const missing = r.has('decoding_position') ? 'decoding_position_time' : 'decoding_position';
    f.error('E001', `'${missing}' not found: decoding_position and decoding_position_time come together. Found: ${listKeys(r.keys)}.`, { key: missing });
    return null;
  }
  if (!r.has('decoding_position')) return null;
  const decPos = await readPositionSeries(r, 'decoding_position_time', 'decoding_position', f, unit);
  if (decPos && encodingDims !== undefined && decPos.dims !== encodingDims) {
    f.error('E011', `'decoding_position' has ${decPos.dims} columns but 'position' has ${encodingDims}; they must match.`, { key: 'decoding_position' });
  }
  return decPos;
}

/** Each electrode's feature names: its own feature_names_<e>, else the file's feature_names. */
async function readFeatureNames(r: ArrayReader): Promise<(electrode: number) => string[] | undefined> {
  const shared = await r.strings('feature_names');
  const perElectrode = new Map<number, string[]>();
  for (const key of r.keys) {
    const m = /^feature_names_(\d+)$/.exec(key);
    const v = m ? await r.strings(key) : null;
    if (m && v) perElectrode.set(Number(m[1]), v);
  }
  return (e) => perElectrode.get(e) ?? shared ?? undefined;
}

async function buildDataset(npz: NpzFile, path: string, f: ValidationFindings, options: NpzLoadOptions): Promise<Dataset | null> {
  const r = new ArrayReader(npz, f);
  const notes: string[] = [];
  for (const key of ['position_time', 'position']) {
    if (!r.has(key)) f.error('E001', `Required array '${key}' not found. Found: ${listKeys(r.keys)}.${renameHint(r.keys, key)}`, { key });
  }
  const unit = (await r.strings('position_units'))?.[0];
  const enc = await readPositionSeries(r, 'position_time', 'position', f, unit);
  const decPos = await readDecodingPosition(r, f, unit, enc?.dims);
  const grid = await readDecodingGrid(r, f, decPos?.time ?? enc?.time ?? null, decPos ? 'decoding_position_time' : 'position_time', notes);
  const isTraining = enc ? await readIsTraining(r, f, enc.time.length, notes) : undefined;
  const electrodeSet = await readElectrodes(r, f, {
    positionRange: enc ? finiteRange(enc.time) : null,
    names: await r.strings('electrode_names'),
    featureNames: await readFeatureNames(r),
    onProgress: options.onProgress,
    notes,
  });
  const params = await readParams(r, f, notes);
  if (!enc) return null;
  const gridBins = await readGrid(r, f, { position: enc.values, positionDims: enc.dims, placeBinSize: params.placeBinSize }, notes);
  if (electrodeSet) {
    checkParamShapes(f, params, enc.dims, electrodeSet.electrodes);
    if (!electrodeSet.separateDecoding) notes.push('no decoding_spike_times_<e>: the encoding spikes are decoded (restricted to the time window)');
  }
  const expected = await readExpected(r, notes);
  const time = grid?.time;
  if (!time || !gridBins || !electrodeSet || f.errorCount() > 0) return null;
  const ds: Dataset = {
    name: basename(path).replace(/\.npz$/i, ''),
    source: path,
    positionTime: enc.time,
    position: enc.values,
    positionDims: enc.dims,
    time,
    electrodes: electrodeSet.electrodes,
    placeBinCenters: gridBins.centers,
    params,
    notes,
  };
  if (gridBins.full) ds.placeGrid = gridBins.full;
  if (decPos) {
    ds.decodingPositionTime = decPos.time;
    ds.decodingPosition = decPos.values;
  }
  if (expected) ds.expected = expected;
  if (isTraining) ds.isTraining = isTraining;
  const trackGraphKey = r.keys.find((k) => TRACK_GRAPH.test(k));
  checkDataset(f, ds, { positionKey: 'position_time', timeKey: grid.key, ...(trackGraphKey ? { trackGraphKey } : {}) });
  notes.unshift(`${count(ds.electrodes.length)} electrodes (${electrodeSet.layout} layout) from ${basename(path)}`);
  return f.errorCount() > 0 ? null : ds;
}

async function inspectOpened(open: () => Promise<NpzFile>, path: string, options: NpzLoadOptions = {}): Promise<NpzInspection> {
  const f = new ValidationFindings(basename(path));
  let npz: NpzFile;
  try {
    npz = await open();
  } catch (e) {
    if (!isAppError(e)) throw e;
    f.fromError(e, {});
    return { dataset: null, findings: f.items };
  }
  try {
    const dataset = await buildDataset(npz, path, f, options);
    return { dataset, findings: f.items };
  } finally {
    await npz.close();
  }
}

/** Validates a .npz and, when it has no errors, returns its Dataset. Never throws for bad input. */
export function inspectNpz(path: string, options: NpzLoadOptions = {}): Promise<NpzInspection> {
  return inspectOpened(() => openNpz(path), path, options);
}

/** The same for bytes in memory; `name` stands for the file in messages. */
export function inspectNpzBytes(bytes: Uint8Array, name = 'memory.npz'): Promise<NpzInspection> {
  return inspectOpened(() => openNpzBytes(bytes, name), name);
}

function datasetOrThrow(result: NpzInspection, path: string): Dataset {
  if (result.dataset) return result.dataset;
  const f = new ValidationFindings(basename(path));
  f.items.push(...result.findings);
  throw f.toAppError() ?? new BugError(`${path}: the loader returned no dataset and no error finding`);
}

/** Loads a .npz; throws an AppError with the first error's code, naming how many more there are. */
export async function loadNpz(path: string, options: NpzLoadOptions = {}): Promise<Dataset> {
  return datasetOrThrow(await inspectNpz(path, options), path);
}

export async function loadNpzBytes(bytes: Uint8Array, name = 'memory.npz'): Promise<Dataset> {
  return datasetOrThrow(await inspectNpzBytes(bytes, name), name);
}
