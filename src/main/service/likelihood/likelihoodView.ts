/**
 * A range of a saved likelihood made small enough for a heatmap: the rows asked for are read from
 * the .npy a chunk at a time (likelihoodRows.ts), each block of rows becomes one displayed row and
 * each group of bins one displayed column. Beside the values: the decoded position and the true
 * position per displayed row, and the decode run's windows when decode.json tells them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LikelihoodView, LikelihoodWindows } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import {
  AXES_FILE, DECODE_SUMMARY_FILE, LIKELIHOOD_DIR, likelihoodRelPath, PARTIAL_SUFFIX, type DecodeSummary, type LikelihoodAxes,
} from '../../engineProtocol';
import type { CheckedLikelihoodRequest } from './likelihoodRequest';
import { forEachRowChunk, likelihoodLayout, openLikelihood, ROW_CHUNK_BYTES } from './likelihoodRows';

/** [from, to) ranges splitting [start, end) into at most max groups, sizes differing by at most one */
export function blocks(start: number, end: number, max: number): [number, number][] {
  const n = end - start;
  const k = Math.min(n, max);
  const out: [number, number][] = [];
  for (let g = 0; g < k; g++) out.push([start + Math.floor((g * n) / k), start + Math.floor(((g + 1) * n) / k)]);
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

/** axes.json beside the likelihoods: time, bin centres and true position, as a heatmap labels them */
export async function readAxes(runDir: string): Promise<LikelihoodAxes | undefined> {
  try {
    const axes = JSON.parse(await readFile(join(runDir, LIKELIHOOD_DIR, AXES_FILE), 'utf8')) as Partial<LikelihoodAxes>;
    return Array.isArray(axes.time) && Array.isArray(axes.binCenters) ? (axes as LikelihoodAxes) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The windows of the decode run that wrote this likelihood, from decode.json; undefined for other
 * runs, or where decode.json does not describe this file. The rule is the decode's own
 * (engine/likelihood/windows.ts): windows of max(2, ⌊rowsPerChunk⌋) rows, a lone last row joined to the window before.
 */
async function decodeWindows(runDir: string, strategy: string, nTime: number): Promise<LikelihoodWindows | undefined> {
  let summary: Partial<DecodeSummary>;
  try {
    summary = JSON.parse(await readFile(join(runDir, DECODE_SUMMARY_FILE), 'utf8')) as Partial<DecodeSummary>;
  } catch {
    return undefined;
  }
  if (summary.likelihoodFile !== likelihoodRelPath(strategy) || summary.shape?.[0] !== nTime) return undefined;
  if (typeof summary.rowsPerChunk !== 'number' || !(summary.rowsPerChunk >= 1)) return undefined;
  const rowsPerWindow = Math.max(2, Math.floor(summary.rowsPerChunk));
  const full = Math.ceil(nTime / rowsPerWindow);
  const count = full > 1 && nTime - (full - 1) * rowsPerWindow < 2 ? full - 1 : full;
  return count === summary.windows ? { rowsPerWindow, count } : undefined;
}

/**
 * Folds time rows into displayed rows. A cell is the MAXIMUM over its block of rows: a likelihood
 * overview is read for where the decode is confident, and a peak that lasts one row in ten
 * thousand (a replay event) must stay visible however far out the view is; a mean would dilute it
 * by the block size and a sample would mostly miss it. It also keeps zooming honest: a finer view
 * never shows a cell brighter than the coarser view above it.
 * The decoded position of a block is the argmax of its rows' SUMMED log likelihood, at full bin
 * resolution: the most likely position were the block one observation. For a single row that is
 * the row's own argmax; unlike the argmax of the maximum it is not decided by one outlying row, and
 * it is the same whether values are shown raw or relative to each row's maximum.
 */
class BlockReducer {
  readonly values: number[] = [];
  readonly decodedBins: number[] = [];
  private readonly max: Float64Array;
  private readonly sum: Float64Array;
  private block = 0;

  constructor(
    private readonly rowBlocks: readonly [number, number][],
    private readonly colGroups: readonly [number, number][],
    private readonly nBins: number,
    private readonly relative: boolean,
  ) {
    this.max = new Float64Array(nBins).fill(-Infinity);
    this.sum = new Float64Array(nBins);
  }

  addRow(row: number, values: Float32Array | Float64Array, offset: number): void {
    while (row >= this.rowBlocks[this.block]![1]) this.finishBlock();
    const { max, sum, nBins } = this;
    let rowMax = -Infinity;
    for (let c = 0; c < nBins; c++) if (values[offset + c]! > rowMax) rowMax = values[offset + c]!;
    // a row with no finite value says nothing about position: it has no peak and joins no sum
    if (!Number.isFinite(rowMax)) return;
    const shift = this.relative ? rowMax : 0;
    for (let c = 0; c < nBins; c++) {
      const v = values[offset + c]!;
      // NaN (a value nobody computed) is left out of the sum; −∞ (no likelihood there) counts
      if (!Number.isNaN(v)) sum[c]! += v;
      if (v - shift > max[c]!) max[c] = v - shift;
    }
  }

  /** closes the current block: its displayed row and decoded bin; call once more after the last row */
  finishBlock(): void {
    const { max, sum } = this;
    for (const [c0, c1] of this.colGroups) {
      let m = -Infinity;
      for (let c = c0; c < c1; c++) if (max[c]! > m) m = max[c]!;
      this.values.push(m);
    }
    let best = -1;
    for (let c = 0; c < this.nBins; c++) if (sum[c]! > (best < 0 ? -Infinity : sum[best]!)) best = c;
    this.decodedBins.push(best);
    max.fill(-Infinity);
    sum.fill(0);
    this.block++;
  }
}

/** Why there is no likelihood to show: a decode still writing it (or stopped part way), or none saved. */
async function missingLikelihood(file: string, runId: string, strategy: string): Promise<AppError> {
  const partial = `${file}${PARTIAL_SUFFIX}`;
  if (await stat(partial).then(() => true, () => false)) {
    return new AppError('NOT_FOUND', `run ${runId} has not finished writing its likelihood for '${strategy}' (${partial} holds the rows so far): ` +
      'wait for the decode to finish, or see the run\'s error if it stopped.', { file: partial, key: strategy });
  }
  return new AppError('NOT_FOUND', `run ${runId} has no saved likelihood for '${strategy}': ` +
    'start the run with --save-likelihood (or "save likelihood" in the run setup) to keep it.', { file, key: strategy });
}

export interface LikelihoodReadOptions {
  /** bytes of the file held at once */
  chunkBytes?: number;
}

export async function likelihoodView(
  runDir: string, runId: string, strategy: string, request: CheckedLikelihoodRequest, options: LikelihoodReadOptions = {},
): Promise<LikelihoodView> {
  const file = join(runDir, likelihoodRelPath(strategy));
  const handle = await openLikelihood(file);
  if (handle === null) throw await missingLikelihood(file, runId, strategy);
  try {
    const layout = await likelihoodLayout(handle, file);
    const { nTime, nBins } = layout;
    if (nTime < 1 || nBins < 1) throw new AppError('IO', `${file} holds no likelihood (shape (${nTime}, ${nBins})).`, { file });
    const startRow = request.startRow;
    const endRow = request.endRow ?? nTime;
    if (startRow >= nTime) throw new AppError('BAD_ARGUMENT', `request.startRow: must be below ${nTime}, the decode's rows, got ${startRow}`, { key: 'request.startRow' });
    if (endRow > nTime) throw new AppError('BAD_ARGUMENT', `request.endRow: the decode has ${nTime} rows, got ${endRow}`, { key: 'request.endRow' });

    const rowBlocks = blocks(startRow, endRow, request.maxRows);
    const colGroups = blocks(0, nBins, request.maxCols);
    const reducer = new BlockReducer(rowBlocks, colGroups, nBins, request.relative);
    await forEachRowChunk(handle, layout, startRow, endRow, (firstRow, count, values) => {
      for (let i = 0; i < count; i++) reducer.addRow(firstRow + i, values, i * nBins);
    }, options.chunkBytes ?? ROW_CHUNK_BYTES);
    reducer.finishBlock();

    const axes = await readAxes(runDir);
    const binAxis = axes && axes.binCenters.length === nBins ? axes.binCenters : Array.from({ length: nBins }, (_, i) => i);
    const timeAxis = axes && axes.time.length === nTime ? axes.time : undefined;
    const view: LikelihoodView = {
      strategy,
      nTime,
      nBins,
      startRow,
      endRow,
      rowsPerRow: (endRow - startRow) / rowBlocks.length,
      relative: request.relative,
      values: reducer.values,
      rows: rowBlocks.length,
      cols: colGroups.length,
      binCenters: colGroups.map(([c0, c1]) => meanOf(binAxis, c0, c1)),
      time: rowBlocks.map(([r0]) => timeAxis?.[r0] ?? r0),
      decodedPosition: reducer.decodedBins.map((b) => (b < 0 ? Number.NaN : (binAxis[b] ?? b))),
      strategies: (await savedLikelihoods(runDir)).filter((s) => s !== 'local'),
    };
    if (axes?.truePosition && axes.truePosition.length === nTime) {
      const tp = axes.truePosition;
      view.truePosition = rowBlocks.map(([r0, r1]) => meanOf(tp, r0, r1));
    }
    const windows = await decodeWindows(runDir, strategy, nTime);
    if (windows) view.windows = windows;
    return view;
  } finally {
    await handle.close();
  }
}
