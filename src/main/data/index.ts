/**
 * Data in: the clusterless-npz/1 loader with its validation catalogue, the synthetic presets, the 1-D
 * place grid, and the float32 .npy writer. Runs in the main/engine host (uses node:fs); must not import
 * electron, the engine, tfjs or the renderer.
 */
import { basename } from 'node:path';
import type { DataInspection, DataPreview } from '../../shared/api';
import type { DataSource } from '../../shared/config';
import { summarizeDataset, type Dataset } from '../../shared/dataset';
import { AppError, isAppError } from '../../shared/errors';
import { inspectNpz, loadNpz } from './loadNpz';
import { makePreset } from './presets';

export { buildPlaceGrid1d, histogramCounts, linspace, type PlaceGrid1d } from './grid';
export { inspectNpz, inspectNpzBytes, loadNpz, loadNpzBytes, type NpzInspection } from './loadNpz';
export { encodeNpyFloat32 } from './npyEncode';
export { parseNpy, type NpyArray, type NpyDtype } from './npy';
export { openNpz, openNpzBytes, type NpzFile } from './npz';
export { makePreset, presetInfo, PRESET_INFO, type PresetOptions } from './presets';
export { MAX_FEATURES } from './validateSpikes';

const PREVIEW_POINTS = 2000;

function presetDataset(source: Extract<DataSource, { kind: 'preset' }>): Dataset {
  return makePreset(source.name, { seed: source.seed, features: source.features, featureScale: source.featureScale });
}

function checkFileKind(path: string): void {
  if (/\.(nwb|h5|hdf5)$/i.test(path)) {
    throw new AppError('E090', `${basename(path)}: NWB/HDF5 import is not available yet; export the data as clusterless-npz/1 (.npz).`,
      { file: basename(path) });
  }
}

export async function loadDataset(source: DataSource): Promise<Dataset> {
  if (source.kind === 'preset') return presetDataset(source);
  checkFileKind(source.path);
  return loadNpz(source.path);
}

/** every k-th entry so that at most `max` remain (the last one always kept) */
function decimate(values: ArrayLike<number>, max: number, stride = 1, column = 0): number[] {
  const n = Math.floor(values.length / stride);
  const step = Math.max(1, Math.ceil(n / max));
  const out: number[] = [];
  for (let i = 0; i < n; i += step) out.push(values[i * stride + column]!);
  if (n > 0 && (n - 1) % step !== 0 && out.length < max) out.push(values[(n - 1) * stride + column]!);
  return out;
}

/** Positions (first coordinate when 2-D) and encoding spike times, thinned for plotting. */
export function previewDataset(d: Dataset): DataPreview {
  return {
    positionTime: decimate(d.positionTime, PREVIEW_POINTS),
    position: decimate(d.position, PREVIEW_POINTS, d.positionDims, 0),
    spikeTimes: d.electrodes.map((e) => ({ electrode: e.name, times: decimate(e.encodingSpikeTimes, PREVIEW_POINTS) })),
  };
}

export async function inspectData(source: DataSource): Promise<DataInspection> {
  if (source.kind === 'preset') {
    const d = presetDataset(source);
    return { source, summary: summarizeDataset(d), findings: [], preview: previewDataset(d) };
  }
  try {
    checkFileKind(source.path);
  } catch (e) {
    if (!isAppError(e)) throw e;
    return { source, summary: null, preview: null, findings: [{ code: e.code, severity: 'error', message: e.message }] };
  }
  const { dataset, findings } = await inspectNpz(source.path);
  return {
    source,
    summary: dataset ? summarizeDataset(dataset) : null,
    findings,
    preview: dataset ? previewDataset(dataset) : null,
  };
}
