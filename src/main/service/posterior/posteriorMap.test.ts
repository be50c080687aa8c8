import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DataSource } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { posteriorRequest } from '../../../shared/posteriorView';
import { MAX_TRAIL_POINTS, posteriorMapRequest } from '../../../shared/posteriorViewMap';
import { encodeNpyFloat32 } from '../../data';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { gridInfoOf, PosteriorGrids, savedGridInfo, type GridExpectation } from './posteriorGrid';
import { likelihoodAxes } from '../../engineProcess/runFiles/likelihoodFiles';
import { posteriorMap } from './posteriorMap';
import { posteriorView } from './posteriorView';

// a 2-D detector decode in miniature: a 6 × 5 grid (x-major, bin = ix · NY + iy) whose edge bins are padding, off the track
const [NX, NY] = [6, 5];
const N_BINS = NX * NY;
const N_TIME = 900;
const STATES = ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'];
const WIDTH = 2 + 2 * N_BINS;
const X = Array.from({ length: NX }, (_, i) => 5 + 10 * i);
const Y = Array.from({ length: NY }, (_, i) => -2 + 4 * i);
const offTrack = (ix: number, iy: number): boolean => ix === 0 || iy === 0 || ix === NX - 1 || iy === NY - 1;
/** the walk visits the interior bins in turn, 20 rows each */
const peakOf = (r: number): [number, number] => {
  const k = Math.floor(r / 20) % 12;
  return [1 + (k % 4), 1 + Math.floor(k / 4)];
};
const EVENT_ROW = 413;
const nonLocal = (r: number): number => (r === EVENT_ROW ? 0.97 : r % 300 < 30 ? 0.9 : 0.03);

const post = new Float32Array(N_TIME * WIDTH);
const states = new Float32Array(N_TIME * 4);
const mapXY = new Float32Array(N_TIME * 2);
for (let r = 0; r < N_TIME; r++) {
  const nl = nonLocal(r);
  const [px, py] = r === EVENT_ROW ? [4, 3] : peakOf(r);
  post[r * WIDTH] = 1 - nl;
  post[r * WIDTH + 1] = 0;
  for (let ix = 0; ix < NX; ix++) {
    for (let iy = 0; iy < NY; iy++) {
      const p = offTrack(ix, iy) ? Number.NaN : ix === px && iy === py ? 0.6 * nl : (0.4 * nl) / 11;
      post[r * WIDTH + 2 + ix * NY + iy] = 0.7 * p;
      post[r * WIDTH + 2 + N_BINS + ix * NY + iy] = 0.3 * p;
    }
  }
  states.set([1 - nl, 0, 0.7 * nl, 0.3 * nl], r * 4);
  mapXY.set([X[px]!, Y[py]!], r * 2);
}

/** the dataset the decode read: the grid's centres x-major, and a true position a little off the MAP's walk */
function dataset(overrides: Partial<Dataset> = {}): Dataset {
  const centers = new Float64Array(N_BINS * 2);
  for (let ix = 0; ix < NX; ix++) for (let iy = 0; iy < NY; iy++) centers.set([X[ix]!, Y[iy]!], (ix * NY + iy) * 2);
  const time = Float64Array.from({ length: N_TIME }, (_, r) => r * 0.004);
  const position = new Float64Array(N_TIME * 2);
  for (let r = 0; r < N_TIME; r++) position.set([X[peakOf(r)[0]]! + 1, Y[peakOf(r)[1]]! + 0.5], r * 2);
  const interior = Uint8Array.from({ length: N_BINS }, (_, b) => (offTrack(Math.floor(b / NY), b % NY) ? 0 : 1));
  return { name: 'field', positionDims: 2, time, positionTime: time, position, placeGrid: { centers, interior, shape: [NX, NY] }, ...overrides } as Dataset;
}
const SOURCE: DataSource = { kind: 'file', path: 'field.npz' };

let dir: string;
let lineDir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posterior-2d-'));
  await mkdir(join(dir, 'posterior'));
  await writeFile(join(dir, POSTERIOR_FILES.acausal), encodeNpyFloat32([N_TIME, WIDTH], post));
  await writeFile(join(dir, POSTERIOR_FILES.causal), encodeNpyFloat32([N_TIME, WIDTH], post.map((v) => v / 2)));
  await writeFile(join(dir, POSTERIOR_FILES.stateProbabilities), encodeNpyFloat32([N_TIME, 4], states));
  await writeFile(join(dir, POSTERIOR_FILES.mapPosition), encodeNpyFloat32([N_TIME, 2], mapXY));
  const posterior = { model: 'detector', method: 'structured', states: STATES, rows: N_TIME, nStateBins: WIDTH, nInteriorStateBins: 2 + 2 * 12, files: POSTERIOR_FILES };
  await writeFile(join(dir, 'decode.json'), JSON.stringify({ posterior }));
  // a 1-D decode: one MAP column
  lineDir = await mkdtemp(join(tmpdir(), 'posterior-1d-'));
  await mkdir(join(lineDir, 'posterior'));
  await writeFile(join(lineDir, POSTERIOR_FILES.acausal), encodeNpyFloat32([4, 6], new Float32Array(24)));
  await writeFile(join(lineDir, POSTERIOR_FILES.mapPosition), encodeNpyFloat32([4], new Float32Array(4)));
  await writeFile(join(lineDir, POSTERIOR_FILES.stateProbabilities), encodeNpyFloat32([4, 4], new Float32Array(16)));
  await writeFile(join(lineDir, 'decode.json'), JSON.stringify({ posterior: { model: 'detector', states: STATES, nStateBins: 6, files: POSTERIOR_FILES } }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(lineDir, { recursive: true, force: true });
});

const gridOf = (expect: GridExpectation) => Promise.resolve(gridInfoOf(dataset(), SOURCE, expect));
const mapAt = async (request: unknown, runDir = dir) => posteriorMap(runDir, 'run', posteriorMapRequest(request), gridOf);

describe('the view of a 2-D decode', () => {
  it('says its dims and grid, and holds the MAP and true x and y per displayed row instead of a raster', async () => {
    const v = await posteriorView(dir, 'run', posteriorRequest({ startRow: 100, endRow: 110, maxRows: 100 }), { grid: gridOf });
    expect([v.dims, v.nBins, v.rows, v.cols, v.values]).toEqual([2, N_BINS, 10, 0, []]);
    expect(v.grid).toEqual({ shape: [NX, NY], x: X, y: Y });
    for (let i = 0; i < 10; i++) {
      expect([v.mapPosition[i], v.mapPositionY![i]]).toEqual([mapXY[(100 + i) * 2], mapXY[(100 + i) * 2 + 1]]);
      expect([v.truePosition![i], v.truePositionY![i]]).toEqual([X[peakOf(100 + i)[0]]! + 1, Y[peakOf(100 + i)[1]]! + 0.5]);
    }
    expect(v.time[3]).toBeCloseTo(103 * 0.004, 9);
    expect(v.nonLocalProbability![0]).toBeCloseTo(0.03, 6);
  });

  it('thinned, a block stands at its most non-local row: a one-row replay keeps its MAP on the tracks', async () => {
    const v = await posteriorView(dir, 'run', posteriorRequest({ maxRows: 9 }), { grid: gridOf });
    const block = Math.floor(EVENT_ROW / 100);
    expect([v.mapPosition[block], v.mapPositionY![block]]).toEqual([X[4], Y[3]]);
    expect(v.nonLocalProbability![block]).toBeCloseTo(0.97, 6);
    expect(v.stateProbabilities).toHaveLength(4);
  });

  it('without its dataset the tracks still stand, and the view says why there is no map', async () => {
    const missing = () => Promise.reject(new AppError('NOT_FOUND', 'field.npz: no such file'));
    const v = await posteriorView(dir, 'run', posteriorRequest({ startRow: 0, endRow: 5 }), { grid: missing });
    expect([v.dims, v.grid, v.gridProblem]).toEqual([2, undefined, 'field.npz: no such file']);
    expect(v.mapPositionY).toHaveLength(5);
  });

  it('a 1-D decode stays as it was: dims 1, a raster, no grid', async () => {
    const v = await posteriorView(lineDir, 'run', posteriorRequest({}), { grid: () => Promise.reject(new Error('never asked')) });
    expect([v.dims, v.cols, v.grid, v.mapPositionY]).toEqual([1, 2, undefined, undefined]);
  });
});

describe('posteriorMap', () => {
  it('is the file\'s row reshaped to ny × nx: both non-local states added per bin, NaN off the track', async () => {
    const m = await mapAt({ row: 250, trailRows: 40 });
    expect([m.nx, m.ny, m.x, m.y, m.row, m.source]).toEqual([NX, NY, X, Y, 250, 'acausal']);
    expect(m.time).toBeCloseTo(1, 9);
    for (let ix = 0; ix < NX; ix++) {
      for (let iy = 0; iy < NY; iy++) {
        const got = m.values[iy * NX + ix]!;
        const bin = 250 * WIDTH + 2 + ix * NY + iy;
        if (offTrack(ix, iy)) expect(got).toBeNaN();
        else expect(got).toBeCloseTo(post[bin]! + post[bin + N_BINS]!, 6);
      }
    }
    expect(m.mass).toBeCloseTo(0.03, 5);
    expect(m.mapPosition).toEqual([mapXY[500], mapXY[501]]);
    expect(m.truePosition).toEqual([X[peakOf(250)[0]]! + 1, Y[peakOf(250)[1]]! + 0.5]);
    expect(m.stateProbabilities!.map((p) => Number(p.toFixed(6)))).toEqual([0.97, 0, 0.021, 0.009]);
    // the trail: the 40 rows before and the row itself, ending where the animal is
    expect(m.trail!.x).toHaveLength(41);
    expect([m.trail!.x.at(-1), m.trail!.y.at(-1)]).toEqual(m.truePosition);
  });

  it('a larger grid than maxSide is summed in groups of bins along each axis', async () => {
    const m = await mapAt({ row: 10, maxSide: 2 });
    expect([m.nx, m.ny, m.x, m.y]).toEqual([2, 2, [15, 45], [0, 10]]);
    const whole = await mapAt({ row: 10 });
    const sumOf = (xs: number[]): number => xs.filter((v) => !Number.isNaN(v)).reduce((a, b) => a + b, 0);
    const cell = (ix0: number, ix1: number, iy0: number, iy1: number): number[] =>
      whole.values.filter((_, i) => i % NX >= ix0 && i % NX < ix1 && Math.floor(i / NX) >= iy0 && Math.floor(i / NX) < iy1);
    expect(m.values[0]).toBeCloseTo(sumOf(cell(0, 3, 0, 2)), 6);
    expect(m.values[3]).toBeCloseTo(sumOf(cell(3, 6, 2, 5)), 6);
    expect(m.mass).toBeCloseTo(whole.mass, 6);
  });

  it('the causal posterior is its own file; a long trail is thinned and still ends at the row', async () => {
    const [a, c] = [await mapAt({ row: 5 }), await mapAt({ row: 5, source: 'causal', trailRows: 800 })];
    expect(c.values[NY * 0 + 7]).toBeCloseTo(a.values[7]! / 2, 6);
    expect(c.trail!.x.length).toBeLessThanOrEqual(MAX_TRAIL_POINTS);
    expect(c.trail!.x.at(-1)).toBe(c.truePosition![0]);
    expect(a.trail).toBeUndefined();
  });

  it('reads the one row it draws, not the file', async () => {
    const probe = await open(join(dir, 'decode.json'));
    const proto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> };
    await probe.close();
    let bytes = 0;
    const read = proto.read;
    const counting = vi.spyOn(proto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const r = await read.apply(this, args);
      bytes += r.bytesRead;
      return r;
    });
    try {
      await mapAt({ row: 777 });
    } finally {
      counting.mockRestore();
    }
    // the headers, one posterior row, one MAP row and one row of state probabilities
    expect(bytes).toBeGreaterThan(WIDTH * 4);
    expect(bytes).toBeLessThan(3 * 1024 + 2 * WIDTH * 4);
  });

  it.each([
    [{ row: N_TIME }, 'request.row'],
    [{ row: -1 }, 'request.row'],
    [{ row: 2.5 }, 'request.row'],
    [{}, 'request.row'],
    [{ row: 1, maxSide: 0 }, 'request.maxSide'],
    [{ row: 1, trailRows: -3 }, 'request.trailRows'],
    [{ row: 1, source: 'smoothed' }, 'request.source'],
    [{ row: 1, zoom: 2 }, 'request.zoom'],
  ])('refuses %j, naming %s', async (request, key) => {
    await expect(mapAt(request)).rejects.toMatchObject({ code: 'BAD_ARGUMENT', location: { key } });
  });

  it('refuses a 1-D decode, whose posterior is no map', async () => {
    await expect(mapAt({ row: 0 }, lineDir)).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('1-D') });
  });
});

describe('PosteriorGrids', () => {
  const expectation: GridExpectation = { runId: 'run-1', nBins: N_BINS, nTime: N_TIME };

  it('reads a run\'s dataset once for every map after it', async () => {
    const load = vi.fn(async () => dataset());
    const grids = new PosteriorGrids(load);
    const source = vi.fn(async () => SOURCE);
    const [a, b] = [await grids.of(source, expectation), await grids.of(source, expectation)];
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    expect(a.grid.shape).toEqual([NX, NY]);
  });

  it('refuses a dataset that no longer fits the posterior, and tries again on the next request', async () => {
    const load = vi.fn(async () => dataset({ placeGrid: { centers: new Float64Array(8), interior: new Uint8Array(4), shape: [2, 2] } }));
    const grids = new PosteriorGrids(load);
    await expect(grids.of(async () => SOURCE, expectation)).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('2 × 2 bins, where the posterior has 30') });
    await expect(grids.of(async () => SOURCE, expectation)).rejects.toMatchObject({ code: 'IO' });
    expect(load).toHaveBeenCalledTimes(2);
    const short = new PosteriorGrids(async () => dataset({ time: new Float64Array(10) }));
    await expect(short.of(async () => SOURCE, expectation)).rejects.toThrow(/10 decoding rows, where the posterior has 900/);
  });

  it('says which data it could not read again, keeping the loader\'s code', async () => {
    const grids = new PosteriorGrids(async () => Promise.reject(new AppError('NOT_FOUND', 'field.npz: no such file')));
    await expect(grids.of(async () => SOURCE, expectation)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/run-1's map .* field\.npz cannot be read again: field\.npz: no such file/) });
  });

  it('draws from the grid the decode saved in its run folder, and reads the dataset only where that is missing or does not fit', async () => {
    const load = vi.fn(async () => dataset());
    const source = vi.fn(async () => SOURCE);
    const axes = likelihoodAxes({ ...dataset(), placeBinCenters: dataset().placeGrid!.centers, decodingPositionTime: undefined } as Dataset);
    const fromRun = await new PosteriorGrids(load).of(source, expectation, async () => axes);
    expect(load).not.toHaveBeenCalled();
    expect(source).not.toHaveBeenCalled();
    // the same grid, times and true x and y as the dataset gives
    const fromData = gridInfoOf(dataset(), SOURCE, expectation);
    expect(fromRun.grid).toEqual(fromData.grid);
    expect(fromRun.time).toEqual(fromData.time);
    expect(fromRun.truePosition).toEqual(fromData.truePosition);
    // an older run's axes (no grid), and a saved grid that does not fit the posterior: the dataset is read
    const { grid: _grid, ...older } = axes;
    for (const saved of [older, { ...axes, grid: { shape: [3, 10] as [number, number], x: X, y: Y } }, { ...axes, time: axes.time.slice(1) }]) {
      const again = vi.fn(async () => dataset());
      expect((await new PosteriorGrids(again).of(source, expectation, async () => saved)).grid.shape).toEqual([NX, NY]);
      expect(again).toHaveBeenCalledTimes(1);
    }
  });

  it('takes a saved grid only when it is whole', () => {
    const axes = likelihoodAxes({ ...dataset(), placeBinCenters: dataset().placeGrid!.centers } as Dataset);
    expect(savedGridInfo(axes, expectation)?.grid.shape).toEqual([NX, NY]);
    expect(savedGridInfo(undefined, expectation)).toBeUndefined();
    expect(savedGridInfo({ ...axes, grid: { ...axes.grid!, x: X.slice(1) } }, expectation)).toBeUndefined();
    expect(savedGridInfo({ ...axes, grid: { ...axes.grid!, y: [...Y.slice(1), Number.NaN] } }, expectation)).toBeUndefined();
    expect(savedGridInfo({ ...axes, grid: { ...axes.grid!, shape: [NX, NY, 1] as unknown as [number, number] } }, expectation)).toBeUndefined();
    // unknown true positions (null in the JSON) read as NaN; without the true y, no true position at all
    const partly = { ...axes, truePosition: axes.truePosition!.map((v, r) => (r === 3 ? null : v)) };
    expect(savedGridInfo(partly, expectation)!.truePosition![6]).toBeNaN();
    const { truePositionY: _y, ...noY } = axes;
    expect(savedGridInfo(noY, expectation)!.truePosition).toBeUndefined();
  });
});
