/**
 * Likelihoods leave the engine as files in the run folder, never as messages: float32 .npy
 * (n_time, n_bins) in C order, plus axes.json with what a heatmap needs to label them
 * (time rows, bin centres, the true position at each row when the dataset knows it) and, for a
 * 2-D decode, the grid its map is drawn on.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset } from '../../../shared/dataset';
import { truePositionAtRows } from '../../analysis';
import { encodeNpyFloat32, writeFileAtomic } from '../../data';
import { gridAxes } from '../../engine/posterior';
import { LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath, type LikelihoodAxes } from '../../engineProtocol';


export async function writeLikelihood(runDir: string, name: string, values: Float64Array, nTime: number, nCols: number): Promise<string> {
  await mkdir(join(runDir, LIKELIHOOD_DIR), { recursive: true });
  const rel = likelihoodRelPath(name);
  // whole or absent: a kill mid-write never leaves half a .npy under its name
  await writeFileAtomic(join(runDir, rel), encodeNpyFloat32([nTime, nCols], values));
  return rel;
}

/**
 * What a heatmap labels its axes with, and on a 2-D grid what the map is drawn on: the grid's shape
 * and axis centres and the true x and y, so the run folder alone draws the map after the data
 * file has moved or changed.
 */
export function likelihoodAxes(dataset: Dataset): LikelihoodAxes {
  const q = dataset.positionDims;
  const binCenters: number[] = [];
  for (let i = 0; i < dataset.placeBinCenters.length; i += q) binCenters.push(dataset.placeBinCenters[i]!);
  const axes: LikelihoodAxes = { time: Array.from(dataset.time), binCenters };
  const truth = truePositionAtRows(dataset);
  const column = (k: number): number[] => Array.from({ length: dataset.time.length }, (_, r) => truth[r * q + k]!);
  const known = truth.some((v) => Number.isFinite(v));
  if (known) axes.truePosition = column(0);
  const shape = dataset.placeGrid?.shape;
  if (q === 2 && shape?.length === 2) {
    const [x, y] = gridAxes(dataset.placeGrid!) as [Float64Array, Float64Array];
    axes.grid = { shape: [shape[0]!, shape[1]!], x: Array.from(x), y: Array.from(y) };
    if (known) axes.truePositionY = column(1);
  }
  return axes;
}

export async function writeAxes(runDir: string, dataset: Dataset): Promise<void> {
  await mkdir(join(runDir, LIKELIHOOD_DIR), { recursive: true });
  // NaN is not JSON: unknown positions travel as null
  const json = JSON.stringify(likelihoodAxes(dataset), (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
  await writeFileAtomic(join(runDir, LIKELIHOOD_AXES_FILE), json);
}
