/**
 * Data in: the clusterless-npz/1 loader with its validation catalogue, NWB/HDF5 import (nwb/), the
 * synthetic presets, the place grid, the .npy/.npz writers, and a sweep's data files (a dataset
 * cut down or regenerated per value). Runs in the main/engine host (uses node:fs and
 * worker_threads); must not import electron, the engine, tfjs or the renderer.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { DataInspection } from '../../shared/api';
import type { DataSource } from '../../shared/config';
import { summarizeDataset, type Dataset } from '../../shared/dataset';
import { isAppError } from '../../shared/errors';
import { inspectNpz, loadNpz, type LoadProgress } from './loadNpz';
import { inspectNwbInWorker, loadNwb, loadRecipe, recipePathFor, type NwbRecipe } from './nwb';
import { makePreset } from './presets';
import { previewDataset } from './preview';

export { writeClusterlessNpz, NPZ_FORMAT, type NpzWriteOptions } from './exportNpz';
export { buildPlaceGrid1d, histogramCounts, linspace, type PlaceGrid1d } from './grid';
export { buildPlaceGrid2d, type PlaceGrid2d } from './grid2d';
export { inspectNpz, inspectNpzBytes, loadNpz, loadNpzBytes, type LoadProgress, type NpzInspection, type NpzLoadOptions } from './loadNpz';
export { encodeNpyBytes, encodeNpyFloat32, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, npyHeader } from './npyEncode';
export { parseNpy, parseNpyHeader, type NpyArray, type NpyDtype } from './npy';
export { datasetFingerprint } from './fingerprint';
export { SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT, shardOf } from './shard';
export { openNpz, openNpzBytes, type NpzFile } from './npz';
export * from './nwb';
export { makePreset, presetInfo, PRESET_INFO, type PresetOptions } from './presets';
export { previewDataset } from './preview';
export { entryAt, existsError, notAFileError, regularFileStats } from './regularFile';
export { Rng } from './rng';
export { gunzipBounded, gzipDeclaredSize, openUntrustedFile, MAX_TRACE_GZ_BYTES, MAX_TRACE_JSON_BYTES, readTraceJson, readUntrustedFile, readUntrustedText, type UntrustedReadOptions } from './untrustedFile';
export { nestedSubset, writeSweepFiles, type GuardWrite, type SweepDataFile, type SweepFilesRequest } from './sweepData';
export { MAX_FEATURES } from './validateSpikes';
export { ZipWriter } from './zipWriter';

const NWB_FILE = /\.(nwb|h5|hdf5)$/i;
const RECIPE_FILE = /\.recipe\.json$/i;

export interface LoadOptions {
  /** called after each electrode is read (npz files) */
  onProgress?: (p: LoadProgress) => void;
}

function presetDataset(source: Extract<DataSource, { kind: 'preset' }>): Dataset {
  return makePreset(source.name, { seed: source.seed, features: source.features, featureScale: source.featureScale });
}

export function isNwbSource(path: string): boolean {
  return NWB_FILE.test(path) || RECIPE_FILE.test(path);
}

/**
 * The files and recipe an NWB path stands for: a recipe file names its files; a data file uses the
 * recipe saved next to it when there is one, else the automatic mapping.
 */
export async function nwbRequest(path: string): Promise<{ paths: string[]; recipe?: NwbRecipe }> {
  if (RECIPE_FILE.test(path)) {
    const recipe = await loadRecipe(path);
    return { paths: recipe.files, recipe };
  }
  const saved = recipePathFor(path);
  if (existsSync(saved)) {
    const recipe = await loadRecipe(saved);
    return { paths: recipe.files, recipe };
  }
  return { paths: [path] };
}

export async function loadDataset(source: DataSource, options: LoadOptions = {}): Promise<Dataset> {
  if (source.kind === 'preset') return presetDataset(source);
  if (isNwbSource(source.path)) {
    const { paths, recipe } = await nwbRequest(source.path);
    return loadNwb(paths, recipe);
  }
  return loadNpz(source.path, options);
}

async function inspectNwbSource(source: Extract<DataSource, { kind: 'file' }>): Promise<DataInspection> {
  try {
    const { paths, recipe } = await nwbRequest(source.path);
    const r = await inspectNwbInWorker(paths, recipe);
    return { source, summary: r.summary, findings: r.findings, preview: r.preview };
  } catch (e) {
    if (!isAppError(e)) throw e;
    const message = e.message.startsWith(basename(source.path)) ? e.message : `${basename(source.path)}: ${e.message}`;
    return { source, summary: null, preview: null, findings: [{ code: e.code, severity: 'error', message, ...(e.location?.key ? { key: e.location.key } : {}) }] };
  }
}

export async function inspectData(source: DataSource): Promise<DataInspection> {
  if (source.kind === 'preset') {
    const d = presetDataset(source);
    return { source, summary: summarizeDataset(d), findings: [], preview: previewDataset(d) };
  }
  if (isNwbSource(source.path)) return inspectNwbSource(source);
  const { dataset, findings } = await inspectNpz(source.path);
  return {
    source,
    summary: dataset ? summarizeDataset(dataset) : null,
    findings,
    preview: dataset ? previewDataset(dataset) : null,
  };
}
