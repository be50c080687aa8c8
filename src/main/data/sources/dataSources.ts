/**
 * A DataSource (a preset, or a file by path) turned into a Dataset or an inspection: the path picks
 * the loader (NWB/HDF5 and recipe files go to nwb/, everything else is clusterless-npz/1), a recipe
 * saved next to an NWB file is used when there is one.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { DataInspection } from '../../../shared/api';
import type { DataSource } from '../../../shared/config';
import { summarizeDataset, type Dataset } from '../../../shared/dataset';
import { isAppError } from '../../../shared/errors';
import { inspectNpz, loadNpz, type LoadProgress } from '../clusterlessNpz';
import { previewDataset } from '../dataset';
import { inspectNwbInWorker, loadNwb, loadRecipe, recipePathFor, type NwbRecipe } from '../nwb';
import { makePreset } from '../presets';

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
