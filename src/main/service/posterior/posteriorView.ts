/**
 * A range of a run's posterior made small enough to draw: the posterior file asked for is read a
 * chunk at a time and folded into displayed rows and position groups (posteriorBlocks.ts); beside
 * it the state probabilities, the MAP position of each displayed row, the true position and the
 * time axis. Only the rows asked for are read, so a zoom into an hour-long decode stays cheap.
 * A 2-D decode is drawn as a map per row instead (posteriorView2d.ts, posteriorMap.ts).
 */
import { AppError } from '../../../shared/errors';
import type { CheckedPosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { blocks, readAxes, ROW_CHUNK_BYTES } from '../likelihood';
import { meanOf, OpenArrays, visitRows } from './posteriorArrays';
import { PosteriorBlockReducer } from './posteriorBlocks';
import { posteriorColumns, readPosteriorSummary } from './posteriorColumns';
import { view2d } from './posteriorView2d';
import { baseView, checkRows, mapAtRows, stateRows, type PosteriorReadOptions, type ViewContext } from './posteriorViewParts';

export type { PosteriorReadOptions } from './posteriorViewParts';

async function view1d(ctx: ViewContext): Promise<PosteriorView> {
  const { cols, rowBlocks, startRow, endRow, post, map, chunkBytes } = ctx;
  const nTime = post.layout.nTime;
  const colGroups = blocks(0, cols.nBins, ctx.request.maxCols);
  const reducer = new PosteriorBlockReducer(rowBlocks, colGroups, cols.nBins, cols.shown.map((s) => s.firstColumn));
  await visitRows(post, startRow, endRow, (r, v, o) => reducer.addRow(r, v, o), chunkBytes);
  reducer.finishBlock();
  const [mapPosition] = await mapAtRows(map, startRow, endRow, reducer.bestRows, chunkBytes);

  const axes = await readAxes(ctx.runDir);
  const binAxis = axes && axes.binCenters.length === cols.nBins ? axes.binCenters : Array.from({ length: cols.nBins }, (_, i) => i);
  const view: PosteriorView = {
    ...baseView(ctx, axes && axes.time.length === nTime ? axes.time : undefined),
    values: reducer.values,
    cols: colGroups.length,
    binCenters: colGroups.map(([c0, c1]) => meanOf(binAxis, c0, c1)),
    mapPosition: mapPosition!,
  };
  if (axes?.truePosition && axes.truePosition.length === nTime) {
    const tp = axes.truePosition;
    view.truePosition = rowBlocks.map(([r0, r1]) => meanOf(tp, r0, r1));
  }
  if (cols.states.length > 1) Object.assign(view, (await stateRows(ctx)).states);
  return view;
}

export async function posteriorView(runDir: string, runId: string, request: CheckedPosteriorRequest, options: PosteriorReadOptions = {}): Promise<PosteriorView> {
  const summary = await readPosteriorSummary(runDir);
  if (!summary) {
    throw new AppError('NOT_FOUND', `run ${runId} has no posterior: decode with --model decoder or --model detector to get one.`, { key: 'posterior' });
  }
  const files = new OpenArrays();
  try {
    const post = await files.open(runDir, POSTERIOR_FILES[request.source], runId);
    const { nTime } = post.layout;
    const cols = posteriorColumns(summary, post.layout.nBins, post.layout.file);
    const startRow = request.startRow;
    const endRow = request.endRow ?? nTime;
    checkRows(nTime, startRow, endRow);
    const map = await files.open(runDir, POSTERIOR_FILES.mapPosition, runId, true);
    if (map.layout.nTime !== nTime) throw new AppError('IO', `${map.layout.file} has ${map.layout.nTime} rows, the posterior ${nTime}; decode again.`, { file: map.layout.file });
    const ctx: ViewContext = {
      runDir, runId, request, options, chunkBytes: options.chunkBytes ?? ROW_CHUNK_BYTES, files, post, map, cols, startRow, endRow,
      rowBlocks: blocks(startRow, endRow, request.maxRows),
    };
    return map.layout.nBins === 2 ? await view2d(ctx) : await view1d(ctx);
  } finally {
    await files.closeAll();
  }
}
