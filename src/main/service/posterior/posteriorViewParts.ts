/**
 * What the 1-D and 2-D views of a posterior share: the context of one read, the rows' check, the
 * MAP at chosen rows, the state probabilities per displayed row, and the fields every view has.
 */
import { AppError } from '../../../shared/errors';
import type { CheckedPosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { visitRows, type OpenArray, type OpenArrays } from './posteriorArrays';
import { StateBlockReducer } from './posteriorBlocks';
import type { PosteriorColumns } from './posteriorColumns';
import type { GridExpectation, PosteriorGridInfo } from './posteriorGrid';

export interface PosteriorReadOptions {
  /** bytes of a file held at once */
  chunkBytes?: number;
  /** a 2-D decode's grid and true trajectory (read from the dataset it decoded); without it a 2-D view has no grid */
  grid?: (expect: GridExpectation) => Promise<PosteriorGridInfo>;
}

export function checkRows(nTime: number, start: number, end: number): void {
  if (start >= nTime) throw new AppError('BAD_ARGUMENT', `request.startRow: must be below ${nTime}, the decode's rows, got ${start}`, { key: 'request.startRow' });
  if (end > nTime) throw new AppError('BAD_ARGUMENT', `request.endRow: the decode has ${nTime} rows, got ${end}`, { key: 'request.endRow' });
}

/** What reading one view needs, whichever its dimensions. */
export interface ViewContext {
  runDir: string;
  runId: string;
  request: CheckedPosteriorRequest;
  options: PosteriorReadOptions;
  chunkBytes: number;
  files: OpenArrays;
  post: OpenArray;
  map: OpenArray;
  cols: PosteriorColumns;
  startRow: number;
  endRow: number;
  rowBlocks: [number, number][];
}

/** the MAP file's columns `dims` (x, or x and y) at each block's chosen row, reading only the range */
export async function mapAtRows(a: OpenArray, start: number, end: number, rows: readonly number[], chunkBytes: number, dims = [0]): Promise<number[][]> {
  const wanted = new Map<number, number[]>();
  rows.forEach((r, i) => {
    if (r >= 0) wanted.set(r, [...(wanted.get(r) ?? []), i]);
  });
  const out = dims.map(() => rows.map(() => Number.NaN));
  await visitRows(a, start, end, (row, values, offset) => {
    for (const i of wanted.get(row) ?? []) dims.forEach((d, k) => (out[k]![i] = values[offset + d]!));
  }, chunkBytes);
  return out;
}

/** the state probabilities' file, checked against the posterior's rows and states */
export async function openStates(ctx: Pick<ViewContext, 'runDir' | 'runId' | 'files' | 'post' | 'cols'>): Promise<OpenArray> {
  const states = await ctx.files.open(ctx.runDir, POSTERIOR_FILES.stateProbabilities, ctx.runId);
  const { file, nTime, nBins } = states.layout;
  if (nTime !== ctx.post.layout.nTime || nBins !== ctx.cols.states.length) {
    throw new AppError('IO', `${file} is ${nTime} × ${nBins}, not ${ctx.post.layout.nTime} rows × ${ctx.cols.states.length} states; decode again.`, { file });
  }
  return states;
}

/** the state probabilities per displayed row, the non-local states' sum where the model has them, and each block's most non-local row */
export async function stateRows(ctx: ViewContext): Promise<{ states: Pick<PosteriorView, 'stateProbabilities' | 'nonLocalProbability'>; peakRows: number[] }> {
  const { cols, rowBlocks } = ctx;
  const file = await openStates(ctx);
  const reducer = new StateBlockReducer(rowBlocks, cols.states.length, cols.nonLocalStateIndices);
  await visitRows(file, ctx.startRow, ctx.endRow, (r, v, o) => reducer.addRow(r, v, o), ctx.chunkBytes);
  reducer.finishBlock();
  const states = cols.nonLocalStateIndices.length > 0 ? { stateProbabilities: reducer.perState, nonLocalProbability: reducer.nonLocal } : { stateProbabilities: reducer.perState };
  return { states, peakRows: reducer.peakRows };
}

/** what a view says whatever its dimensions: the run's states, the rows shown, their times */
export function baseView(ctx: ViewContext, timeAxis: ArrayLike<number> | undefined): PosteriorView {
  const { cols, rowBlocks, startRow, endRow } = ctx;
  return {
    source: ctx.request.source,
    model: cols.model,
    states: cols.states,
    spatialStates: cols.shown.map((s) => s.state),
    nTime: ctx.post.layout.nTime,
    nBins: cols.nBins,
    dims: 1,
    startRow,
    endRow,
    rowsPerRow: (endRow - startRow) / rowBlocks.length,
    values: [],
    rows: rowBlocks.length,
    cols: 0,
    binCenters: [],
    time: rowBlocks.map(([r0]) => timeAxis?.[r0] ?? r0),
    mapPosition: [],
  };
}

