/**
 * Likelihoods leave the engine as files in the run folder, never as messages: float32 .npy
 * (n_time, n_bins) in C order, plus axes.json with what a heatmap needs to label them
 * (time rows, bin centres, the true position at each row when the dataset knows it).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset } from '../../../shared/dataset';
import { encodeNpyFloat32, writeFileAtomic } from '../../data';
import { LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath, type LikelihoodAxes } from '../../engineProtocol';


export async function writeLikelihood(runDir: string, name: string, values: Float64Array, nTime: number, nCols: number): Promise<string> {
  await mkdir(join(runDir, LIKELIHOOD_DIR), { recursive: true });
  const rel = likelihoodRelPath(name);
  // whole or absent: a kill mid-write never leaves half a .npy under its name
  await writeFileAtomic(join(runDir, rel), encodeNpyFloat32([nTime, nCols], values));
  return rel;
}

/** Linear interpolation of the first position dimension at each decoding time; NaN outside the samples. */
function positionAt(times: Float64Array, sampleTimes: Float64Array, position: Float64Array, dims: number): number[] {
  const out: number[] = [];
  let j = 0;
  for (const t of times) {
    while (j + 1 < sampleTimes.length && sampleTimes[j + 1]! < t) j++;
    const t0 = sampleTimes[j];
    const t1 = sampleTimes[j + 1];
    if (t0 === undefined || t < t0 || (t1 === undefined && t !== t0)) {
      out.push(Number.NaN);
      continue;
    }
    if (t1 === undefined || t1 === t0) {
      out.push(position[j * dims]!);
      continue;
    }
    const w = (t - t0) / (t1 - t0);
    out.push(position[j * dims]! * (1 - w) + position[(j + 1) * dims]! * w);
  }
  return out;
}

export function likelihoodAxes(dataset: Dataset): LikelihoodAxes {
  const q = dataset.positionDims;
  const binCenters: number[] = [];
  for (let i = 0; i < dataset.placeBinCenters.length; i += q) binCenters.push(dataset.placeBinCenters[i]!);
  const axes: LikelihoodAxes = { time: Array.from(dataset.time), binCenters };
  const pt = dataset.decodingPositionTime ?? dataset.positionTime;
  const pos = dataset.decodingPosition ?? dataset.position;
  const truePosition = positionAt(dataset.time, pt, pos, q);
  if (truePosition.some((v) => Number.isFinite(v))) axes.truePosition = truePosition;
  return axes;
}

export async function writeAxes(runDir: string, dataset: Dataset): Promise<void> {
  await mkdir(join(runDir, LIKELIHOOD_DIR), { recursive: true });
  // NaN is not JSON: unknown positions travel as null
  const json = JSON.stringify(likelihoodAxes(dataset), (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
  await writeFileAtomic(join(runDir, LIKELIHOOD_AXES_FILE), json);
}
