/**
 * A 2-D decode's grid and true trajectory, for the map and the x/y tracks, once per run. A decode
 * writes them beside its likelihoods (axes.json: the grid's shape and axis centres, the true x and
 * y), so the run folder alone draws its map. Runs written before that kept neither the grid nor
 * the true y: for them the dataset the run decoded (its config's data source) is read again,
 * and a data file changed since the decode is refused rather than drawn on the wrong grid.
 */
import type { DataSource } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError, BugError } from '../../../shared/errors';
import type { PosteriorGrid } from '../../../shared/posteriorView';
import { truePositionAtRows } from '../../analysis';
import { loadDataset } from '../../data';
import { gridAxes } from '../../engine/posterior';
import type { LikelihoodAxes } from '../../engineProtocol';

export interface PosteriorGridInfo {
  grid: PosteriorGrid;
  /** the decoding rows' times (s) */
  time: Float64Array;
  /** nTime × 2 (x, y per row), NaN where unknown; absent where the dataset knows no position at any row */
  truePosition?: Float64Array;
}

/** what the posterior files say the grid must be */
export interface GridExpectation {
  runId: string;
  /** position bins of one spatial state (the grid's bins, interior or not) */
  nBins: number;
  nTime: number;
}

function describe(source: DataSource): string {
  return source.kind === 'preset' ? `preset:${source.name}` : source.path;
}

/** The grid of a loaded dataset, checked against the posterior it should have produced. */
export function gridInfoOf(dataset: Dataset, source: DataSource, expect: GridExpectation): PosteriorGridInfo {
  const refuse = (why: string): AppError =>
    new AppError('IO', `run ${expect.runId}'s map needs the place grid of the data it decoded, and ${describe(source)} ${why}: the file changed since the decode, or another file now has its name. Decode it again to see its map.`, { key: 'data' });
  const shape = dataset.placeGrid?.shape;
  if (dataset.positionDims !== 2 || !shape || shape.length !== 2) throw refuse(`has ${dataset.positionDims}-D positions without a whole 2-D grid`);
  const [nx, ny] = shape as [number, number];
  if (nx * ny !== expect.nBins) throw refuse(`has a grid of ${nx} × ${ny} bins, where the posterior has ${expect.nBins}`);
  if (dataset.time.length !== expect.nTime) throw refuse(`has ${dataset.time.length} decoding rows, where the posterior has ${expect.nTime}`);
  const [x, y] = gridAxes(dataset.placeGrid!) as [Float64Array, Float64Array];
  const grid: PosteriorGrid = { shape: [nx, ny], x: Array.from(x), y: Array.from(y) };
  const info: PosteriorGridInfo = { grid, time: Float64Array.from(dataset.time) };
  const truth = truePositionAtRows(dataset);
  if (truth.some((v) => !Number.isNaN(v))) info.truePosition = truth;
  return info;
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const finiteList = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n && v.every((c) => typeof c === 'number' && Number.isFinite(c));
const rowsOf = (v: unknown, n: number): v is (number | null)[] => Array.isArray(v) && v.length === n && v.every((c) => c === null || typeof c === 'number');

/**
 * The grid the decode saved in its run folder, when it is whole and fits the posterior; undefined
 * otherwise (a run written before the grid was saved, or a file edited since), and the dataset is
 * read instead.
 */
export function savedGridInfo(axes: LikelihoodAxes | undefined, expect: GridExpectation): PosteriorGridInfo | undefined {
  const g = axes?.grid;
  if (!axes || !g || !Array.isArray(g.shape) || g.shape.length !== 2) return undefined;
  const [nx, ny] = g.shape;
  if (!isCount(nx) || !isCount(ny) || nx * ny !== expect.nBins || !finiteList(g.x, nx) || !finiteList(g.y, ny)) return undefined;
  if (!finiteList(axes.time, expect.nTime)) return undefined;
  const info: PosteriorGridInfo = { grid: { shape: [nx, ny], x: [...g.x], y: [...g.y] }, time: Float64Array.from(axes.time) };
  const [tx, ty] = [axes.truePosition, axes.truePositionY];
  if (rowsOf(tx, expect.nTime) && rowsOf(ty, expect.nTime)) {
    const truth = new Float64Array(2 * expect.nTime);
    for (let r = 0; r < expect.nTime; r++) truth.set([tx[r] ?? NaN, ty[r] ?? NaN], 2 * r);
    info.truePosition = truth;
  }
  return info;
}

/** a load that failed, said as what the map lacks and why */
function unreadable(e: unknown, source: DataSource, expect: GridExpectation): unknown {
  if (!(e instanceof AppError) || e instanceof BugError) return e;
  return new AppError(e.code, `run ${expect.runId}'s map needs the place grid of the data it decoded, and ${describe(source)} cannot be read again: ${e.message}`, e.location);
}

export type DatasetLoader = (source: DataSource) => Promise<Dataset>;

/**
 * The grids of the runs whose maps the pages look at, loaded once each (a page asks for a map per
 * frame); a few runs at most are kept, the one used longest ago dropped first. A failed load is not
 * kept, so a data file put back is read on the next request.
 */
export class PosteriorGrids {
  private readonly known = new Map<string, Promise<PosteriorGridInfo>>();

  constructor(
    private readonly load: DatasetLoader = (source) => loadDataset(source),
    private readonly capacity = 4,
  ) {}

  /** `saved`: the axes the decode wrote in its run folder, read first; `source`: its dataset, read where they lack the grid */
  async of(source: () => Promise<DataSource>, expect: GridExpectation, saved: () => Promise<LikelihoodAxes | undefined> = async () => undefined): Promise<PosteriorGridInfo> {
    const key = `${expect.runId}\n${expect.nBins}\n${expect.nTime}`;
    let info = this.known.get(key);
    if (!info) {
      info = this.read(source, expect, saved);
      info.catch(() => {
        if (this.known.get(key) === info) this.known.delete(key);
      });
    }
    this.known.delete(key);
    this.known.set(key, info);
    while (this.known.size > this.capacity) this.known.delete(this.known.keys().next().value!);
    return info;
  }

  private async read(source: () => Promise<DataSource>, expect: GridExpectation, saved: () => Promise<LikelihoodAxes | undefined>): Promise<PosteriorGridInfo> {
    const fromRun = savedGridInfo(await saved(), expect);
    if (fromRun) return fromRun;
    const s = await source();
    let dataset: Dataset;
    try {
      dataset = await this.load(s);
    } catch (e) {
      throw unreadable(e, s, expect);
    }
    return gridInfoOf(dataset, s, expect);
  }
}
