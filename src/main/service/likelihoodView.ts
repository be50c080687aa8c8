/**
 * A saved likelihood made small enough for a heatmap: block means down to at most 400 rows and 500
 * columns, the decoded position (argmax bin of each row block, taken at full column resolution),
 * and the true position where the dataset knew it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LikelihoodView } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { parseNpy } from '../data';
import { AXES_FILE, LIKELIHOOD_DIR, type LikelihoodAxes } from '../engineProtocol';

export const MAX_HEATMAP_ROWS = 400;
export const MAX_HEATMAP_COLS = 500;

/** [from, to) index ranges splitting n items into at most max groups */
function groups(n: number, max: number): [number, number][] {
  const k = Math.min(n, max);
  const out: [number, number][] = [];
  for (let g = 0; g < k; g++) out.push([Math.floor((g * n) / k), Math.floor(((g + 1) * n) / k)]);
  return out;
}

function meanOf(values: ArrayLike<number | null>, from: number, to: number): number {
  let s = 0;
  let c = 0;
  for (let i = from; i < to; i++) {
    const v = values[i];
    if (typeof v === 'number' && Number.isFinite(v)) {
      s += v;
      c++;
    }
  }
  return c > 0 ? s / c : Number.NaN;
}

export async function savedLikelihoods(runDir: string): Promise<string[]> {
  try {
    return (await readdir(join(runDir, LIKELIHOOD_DIR)))
      .filter((f) => f.endsWith('.npy'))
      .map((f) => f.slice(0, -4))
      .sort();
  } catch {
    return [];
  }
}

export async function likelihoodView(runDir: string, runId: string, strategy: string): Promise<LikelihoodView> {
  const file = join(runDir, LIKELIHOOD_DIR, `${strategy}.npy`);
  let bytes: Uint8Array;
  try {
    const buf = await readFile(file);
    // a plain Uint8Array view: parseNpy copies with slice(), which on a Node Buffer would not copy
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch {
    throw new AppError('NOT_FOUND', `run ${runId} has no saved likelihood for '${strategy}': start the run with --save-likelihood ` +
      '(or "save likelihood" in the run setup) to keep it.', { file, key: strategy });
  }
  const npy = parseNpy(bytes, { file });
  const data = npy.data;
  if (!(data instanceof Float64Array) || npy.shape.length !== 2) {
    throw new AppError('IO', `${file} is not a 2-D float array.`, { file });
  }
  const [nTime, nBins] = npy.shape as [number, number];
  let axes: LikelihoodAxes | undefined;
  try {
    axes = JSON.parse(await readFile(join(runDir, LIKELIHOOD_DIR, AXES_FILE), 'utf8')) as LikelihoodAxes;
  } catch {
    axes = undefined;
  }
  const binAxis = axes && axes.binCenters.length === nBins ? axes.binCenters : Array.from({ length: nBins }, (_, i) => i);
  const timeAxis = axes && axes.time.length === nTime ? axes.time : Array.from({ length: nTime }, (_, i) => i);
  const rowGroups = groups(nTime, MAX_HEATMAP_ROWS);
  const colGroups = groups(nBins, MAX_HEATMAP_COLS);
  const values: number[] = [];
  const decodedPosition: number[] = [];
  const rowMean = new Float64Array(nBins);
  for (const [r0, r1] of rowGroups) {
    rowMean.fill(0);
    for (let r = r0; r < r1; r++) for (let c = 0; c < nBins; c++) rowMean[c]! += data[r * nBins + c]! / (r1 - r0);
    let best = 0;
    for (let c = 1; c < nBins; c++) if (rowMean[c]! > rowMean[best]! || Number.isNaN(rowMean[best]!)) best = c;
    decodedPosition.push(binAxis[best] ?? best);
    for (const [c0, c1] of colGroups) values.push(meanOf(rowMean, c0, c1));
  }
  const view: LikelihoodView = {
    strategy,
    nTime,
    nBins,
    values,
    rows: rowGroups.length,
    cols: colGroups.length,
    binCenters: colGroups.map(([c0, c1]) => meanOf(binAxis, c0, c1)),
    time: rowGroups.map(([r0]) => timeAxis[r0] ?? r0),
    decodedPosition,
    strategies: (await savedLikelihoods(runDir)).filter((s) => s !== 'local'),
  };
  if (axes?.truePosition && axes.truePosition.length === nTime) {
    const tp = axes.truePosition;
    view.truePosition = rowGroups.map(([r0, r1]) => meanOf(tp, r0, r1));
  }
  return view;
}
