/**
 * A 2-D decode's posterior at one time row, as a map: one row of the posterior file (a positioned
 * read of that row alone, whatever the file's length), its shown states added up per bin and laid
 * out on the grid (x-major in the file, ny × nx in the answer), with the MAP and state
 * probabilities of the same row and the true trajectory up to it. A page asks for one per frame.
 */
import { AppError } from '../../../shared/errors';
import type { PosteriorGrid } from '../../../shared/posteriorView';
import { MAX_TRAIL_POINTS, type CheckedPosteriorMapRequest, type PosteriorMap } from '../../../shared/posteriorViewMap';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { blocks } from '../likelihood';
import { meanOf, OpenArrays, readRow } from './posteriorArrays';
import { posteriorColumns, readPosteriorSummary } from './posteriorColumns';
import type { GridExpectation, PosteriorGridInfo } from './posteriorGrid';
import { openStates } from './posteriorViewParts';

export type MapCells = Pick<PosteriorMap, 'nx' | 'ny' | 'x' | 'y' | 'values' | 'mass'>;

const addNaN = (a: number, b: number): number => (Number.isNaN(b) ? a : Number.isNaN(a) ? b : a + b);

/**
 * One row's shown states summed per bin and per cell: bins are grouped into at most maxSide
 * cells along each axis (a cell is the probability its bins hold, so it reads the same at any
 * size); a cell whose bins are all off the track stays NaN.
 */
export function mapCells(row: ArrayLike<number>, firstColumns: readonly number[], grid: PosteriorGrid, maxSide: number): MapCells {
  const [nx, ny] = grid.shape;
  const gx = blocks(0, nx, maxSide);
  const gy = blocks(0, ny, maxSide);
  const values = new Array<number>(gx.length * gy.length).fill(Number.NaN);
  gx.forEach(([x0, x1], cx) => {
    for (let ix = x0; ix < x1; ix++) {
      gy.forEach(([y0, y1], cy) => {
        const cell = cy * gx.length + cx;
        for (let iy = y0; iy < y1; iy++) {
          const bin = ix * ny + iy;
          for (const first of firstColumns) values[cell] = addNaN(values[cell]!, row[first + bin]!);
        }
      });
    }
  });
  const mass = values.reduce((s, v) => addNaN(s, v), Number.NaN);
  return {
    nx: gx.length, ny: gy.length, values, mass: Number.isNaN(mass) ? 0 : mass,
    x: gx.map(([a, b]) => meanOf(grid.x, a, b)), y: gy.map(([a, b]) => meanOf(grid.y, a, b)),
  };
}

/** The true (x, y) over [row − trailRows, row], every k-th row so at most MAX_TRAIL_POINTS, ending at the row. */
export function trailOf(truth: Float64Array, row: number, trailRows: number): { x: number[]; y: number[] } {
  const first = Math.max(0, row - trailRows);
  const step = Math.max(1, Math.ceil((row - first + 1) / MAX_TRAIL_POINTS));
  const rows: number[] = [];
  for (let r = row; r >= first; r -= step) rows.push(r);
  rows.reverse();
  return { x: rows.map((r) => truth[r * 2]!), y: rows.map((r) => truth[r * 2 + 1]!) };
}

function truthAt(info: PosteriorGridInfo, row: number): [number, number] | undefined {
  const t = info.truePosition;
  if (!t || (Number.isNaN(t[row * 2]!) && Number.isNaN(t[row * 2 + 1]!))) return undefined;
  return [t[row * 2]!, t[row * 2 + 1]!];
}

export async function posteriorMap(
  runDir: string, runId: string, request: CheckedPosteriorMapRequest, gridOf: (expect: GridExpectation) => Promise<PosteriorGridInfo>,
): Promise<PosteriorMap> {
  const summary = await readPosteriorSummary(runDir);
  if (!summary) throw new AppError('NOT_FOUND', `run ${runId} has no posterior: decode with --model decoder or --model detector to get one.`, { key: 'posterior' });
  const files = new OpenArrays();
  try {
    const post = await files.open(runDir, POSTERIOR_FILES[request.source], runId);
    const { nTime } = post.layout;
    const cols = posteriorColumns(summary, post.layout.nBins, post.layout.file);
    const map = await files.open(runDir, POSTERIOR_FILES.mapPosition, runId, true);
    if (map.layout.nBins !== 2) {
      throw new AppError('BAD_ARGUMENT', `run ${runId} decoded ${map.layout.nBins}-D positions: its posterior is drawn over time and position, not as a map.`, { key: 'runId' });
    }
    if (map.layout.nTime !== nTime) throw new AppError('IO', `${map.layout.file} has ${map.layout.nTime} rows, the posterior ${nTime}; decode again.`, { file: map.layout.file });
    if (request.row >= nTime) throw new AppError('BAD_ARGUMENT', `request.row: must be below ${nTime}, the decode's rows, got ${request.row}`, { key: 'request.row' });
    const info = await gridOf({ runId, nBins: cols.nBins, nTime });
    const cells = mapCells(await readRow(post, request.row), cols.shown.map((s) => s.firstColumn), info.grid, request.maxSide);
    const mapRow = await readRow(map, request.row);
    const out: PosteriorMap = { source: request.source, row: request.row, time: info.time[request.row]!, ...cells, mapPosition: [mapRow[0]!, mapRow[1]!] };
    const truth = truthAt(info, request.row);
    if (truth) out.truePosition = truth;
    if (info.truePosition && request.trailRows > 0) out.trail = trailOf(info.truePosition, request.row, request.trailRows);
    if (cols.states.length > 1) out.stateProbabilities = Array.from(await readRow(await openStates({ runDir, runId, files, post, cols }), request.row));
    return out;
  } finally {
    await files.closeAll();
  }
}
