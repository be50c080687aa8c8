/**
 * The view of a 2-D decode's range: no raster over time and position (a map per row stands for
 * it, posteriorMap.ts), so the posterior file itself is not read; the MAP's x and y at each
 * displayed row, the true x and y, the state probabilities, and the grid the map is drawn on.
 */
import { AppError, BugError } from '../../../shared/errors';
import type { PosteriorView } from '../../../shared/posteriorView';
import { readAxes } from '../likelihood';
import { meanOf } from './posteriorArrays';
import type { PosteriorGridInfo } from './posteriorGrid';
import { baseView, mapAtRows, stateRows, type ViewContext } from './posteriorViewParts';

/** the run's grid, or why there is none to draw on; a broken invariant still throws */
async function gridOrProblem(ctx: ViewContext): Promise<{ info: PosteriorGridInfo } | { problem: string }> {
  if (!ctx.options.grid) return { problem: `run ${ctx.runId} is a 2-D decode, and its grid was not read with it.` };
  try {
    return { info: await ctx.options.grid({ runId: ctx.runId, nBins: ctx.cols.nBins, nTime: ctx.post.layout.nTime }) };
  } catch (e) {
    if (e instanceof AppError && !(e instanceof BugError)) return { problem: e.message };
    throw e;
  }
}

/** per displayed row, the mean of one coordinate of an (nTime × 2) trajectory over its block */
function blockMeans(ctx: ViewContext, xy: Float64Array, dim: number): number[] {
  return ctx.rowBlocks.map(([r0, r1]) => meanOf(xy, r0, r1, 2, dim));
}

export async function view2d(ctx: ViewContext): Promise<PosteriorView> {
  const { cols, rowBlocks, startRow, endRow, map, chunkBytes } = ctx;
  const nTime = ctx.post.layout.nTime;
  const grid = await gridOrProblem(ctx);
  // the detector's blocks stand at their most non-local row, so a replay a few rows long stays on the tracks
  const { states, peakRows } = cols.states.length > 1 ? await stateRows(ctx) : { states: {}, peakRows: rowBlocks.map(([r0]) => r0) };
  const [mapX, mapY] = await mapAtRows(map, startRow, endRow, peakRows, chunkBytes, [0, 1]);
  if ('info' in grid) {
    const { info } = grid;
    const view: PosteriorView = { ...baseView(ctx, info.time), ...states, dims: 2, grid: info.grid, mapPosition: mapX!, mapPositionY: mapY! };
    if (info.truePosition) {
      view.truePosition = blockMeans(ctx, info.truePosition, 0);
      view.truePositionY = blockMeans(ctx, info.truePosition, 1);
    }
    return view;
  }
  // without the grid the tracks still stand: the axes the decode wrote give the times and the true x
  const axes = await readAxes(ctx.runDir);
  const view: PosteriorView = {
    ...baseView(ctx, axes && axes.time.length === nTime ? axes.time : undefined), ...states, dims: 2, gridProblem: grid.problem, mapPosition: mapX!, mapPositionY: mapY!,
  };
  if (axes?.truePosition && axes.truePosition.length === nTime) {
    const tp = axes.truePosition;
    view.truePosition = rowBlocks.map(([r0, r1]) => meanOf(tp, r0, r1));
  }
  return view;
}
