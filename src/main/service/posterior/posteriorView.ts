/**
 * A range of a run's posterior made small enough to draw: the posterior file asked for is read a
 * chunk at a time and folded into displayed rows and position groups (posteriorBlocks.ts); beside
 * it the state probabilities, the MAP position of each displayed row, the true position and the
 * time axis. Only the rows asked for are read, so a zoom into an hour-long decode stays cheap.
 */
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { CheckedPosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import { openUntrustedFile } from '../../data';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { blocks, forEachRowChunk, likelihoodLayout, readAxes, ROW_CHUNK_BYTES, type LikelihoodLayout } from '../likelihood';
import { PosteriorBlockReducer, StateBlockReducer } from './posteriorBlocks';
import { posteriorColumns, readPosteriorSummary, type PosteriorColumns } from './posteriorColumns';

export interface PosteriorReadOptions {
  /** bytes of a file held at once */
  chunkBytes?: number;
}

type RowVisitor = (row: number, values: Float32Array | Float64Array, offset: number) => void;

interface OpenArray {
  handle: FileHandle;
  layout: LikelihoodLayout;
}

async function openArray(runDir: string, relPath: string, runId: string, vector = false): Promise<OpenArray> {
  const file = join(runDir, relPath);
  let handle: FileHandle;
  try {
    ({ handle } = await openUntrustedFile(file, { fix: 'the run\'s posterior is not one the decode wrote; delete the run or decode again' }));
  } catch (e) {
    if ((e as AppError).code === 'NOT_FOUND') {
      throw new AppError('NOT_FOUND', `run ${runId} has no ${relPath}: the decode stopped before its posterior was written; decode again.`, { file });
    }
    throw e;
  }
  try {
    return { handle, layout: await likelihoodLayout(handle, file, { acceptVector: vector }) };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

async function visitRows(a: OpenArray, start: number, end: number, visit: RowVisitor, chunkBytes: number): Promise<void> {
  const width = a.layout.nBins;
  await forEachRowChunk(a.handle, a.layout, start, end, (first, count, values) => {
    for (let i = 0; i < count; i++) visit(first + i, values, i * width);
  }, chunkBytes);
}

function checkRows(nTime: number, start: number, end: number): void {
  if (start >= nTime) throw new AppError('BAD_ARGUMENT', `request.startRow: must be below ${nTime}, the decode's rows, got ${start}`, { key: 'request.startRow' });
  if (end > nTime) throw new AppError('BAD_ARGUMENT', `request.endRow: the decode has ${nTime} rows, got ${end}`, { key: 'request.endRow' });
}

function meanOf(values: readonly number[], from: number, to: number): number {
  let s = 0;
  let c = 0;
  for (let i = from; i < to; i++) {
    if (Number.isFinite(values[i])) {
      s += values[i]!;
      c++;
    }
  }
  return c > 0 ? s / c : Number.NaN;
}

/** the MAP position at each block's chosen row, reading only the range */
async function mapAtRows(a: OpenArray, start: number, end: number, rows: readonly number[], chunkBytes: number): Promise<number[]> {
  const wanted = new Map<number, number[]>();
  rows.forEach((r, i) => {
    if (r >= 0) wanted.set(r, [...(wanted.get(r) ?? []), i]);
  });
  const out = rows.map(() => Number.NaN);
  await visitRows(a, start, end, (row, values, offset) => {
    for (const i of wanted.get(row) ?? []) out[i] = values[offset]!;
  }, chunkBytes);
  return out;
}

/** the state probabilities per displayed row, and the non-local states' sum where the model has them */
async function stateRows(
  states: OpenArray, cols: PosteriorColumns, rowBlocks: [number, number][], nTime: number, chunkBytes: number,
): Promise<Pick<PosteriorView, 'stateProbabilities' | 'nonLocalProbability'>> {
  const { file } = states.layout;
  if (states.layout.nTime !== nTime || states.layout.nBins !== cols.states.length) {
    throw new AppError('IO', `${file} is ${states.layout.nTime} × ${states.layout.nBins}, not ${nTime} rows × ${cols.states.length} states; decode again.`, { file });
  }
  const [startRow, endRow] = [rowBlocks[0]![0], rowBlocks[rowBlocks.length - 1]![1]];
  const reducer = new StateBlockReducer(rowBlocks, cols.states.length, cols.nonLocalStateIndices);
  await visitRows(states, startRow, endRow, (r, v, o) => reducer.addRow(r, v, o), chunkBytes);
  reducer.finishBlock();
  return cols.nonLocalStateIndices.length > 0 ? { stateProbabilities: reducer.perState, nonLocalProbability: reducer.nonLocal } : { stateProbabilities: reducer.perState };
}

export async function posteriorView(runDir: string, runId: string, request: CheckedPosteriorRequest, options: PosteriorReadOptions = {}): Promise<PosteriorView> {
  const summary = await readPosteriorSummary(runDir);
  if (!summary) {
    throw new AppError('NOT_FOUND', `run ${runId} has no posterior: decode with --model decoder or --model detector to get one.`, { key: 'posterior' });
  }
  const chunkBytes = options.chunkBytes ?? ROW_CHUNK_BYTES;
  const opened: OpenArray[] = [];
  try {
    const post = await openArray(runDir, POSTERIOR_FILES[request.source], runId);
    opened.push(post);
    const { nTime } = post.layout;
    const cols = posteriorColumns(summary, post.layout.nBins, post.layout.file);
    const startRow = request.startRow;
    const endRow = request.endRow ?? nTime;
    checkRows(nTime, startRow, endRow);
    const rowBlocks = blocks(startRow, endRow, request.maxRows);
    const colGroups = blocks(0, cols.nBins, request.maxCols);
    const reducer = new PosteriorBlockReducer(rowBlocks, colGroups, cols.nBins, cols.shown.map((s) => s.firstColumn));
    await visitRows(post, startRow, endRow, (r, v, o) => reducer.addRow(r, v, o), chunkBytes);
    reducer.finishBlock();

    const map = await openArray(runDir, POSTERIOR_FILES.mapPosition, runId, true);
    opened.push(map);
    if (map.layout.nTime !== nTime) throw new AppError('IO', `${map.layout.file} has ${map.layout.nTime} rows, the posterior ${nTime}; decode again.`, { file: map.layout.file });
    const mapPosition = await mapAtRows(map, startRow, endRow, reducer.bestRows, chunkBytes);

    const axes = await readAxes(runDir);
    const binAxis = axes && axes.binCenters.length === cols.nBins ? axes.binCenters : Array.from({ length: cols.nBins }, (_, i) => i);
    const timeAxis = axes && axes.time.length === nTime ? axes.time : undefined;
    const view: PosteriorView = {
      source: request.source,
      model: cols.model,
      states: cols.states,
      spatialStates: cols.shown.map((s) => s.state),
      nTime,
      nBins: cols.nBins,
      startRow,
      endRow,
      rowsPerRow: (endRow - startRow) / rowBlocks.length,
      values: reducer.values,
      rows: rowBlocks.length,
      cols: colGroups.length,
      binCenters: colGroups.map(([c0, c1]) => meanOf(binAxis, c0, c1)),
      time: rowBlocks.map(([r0]) => timeAxis?.[r0] ?? r0),
      mapPosition,
    };
    if (axes?.truePosition && axes.truePosition.length === nTime) {
      const tp = axes.truePosition;
      view.truePosition = rowBlocks.map(([r0, r1]) => meanOf(tp, r0, r1));
    }
    if (cols.states.length > 1) {
      const states = await openArray(runDir, POSTERIOR_FILES.stateProbabilities, runId);
      opened.push(states);
      Object.assign(view, await stateRows(states, cols, rowBlocks, nTime, chunkBytes));
    }
    return view;
  } finally {
    for (const a of opened) await a.handle.close();
  }
}
