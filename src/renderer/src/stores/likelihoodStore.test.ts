import { describe, expect, it } from 'vitest';
import type { LikelihoodRequest } from '../../../shared/api';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { likelihoodView } from '../testing/sampleData';
import { clampRange, DETAIL_ROWS, MAX_COLS, OVERVIEW_ROWS, rangeAround, windowOf, windowRange } from './likelihoodRows';
import { useLikelihoodStore } from './likelihoodStore';
import { useNavStore } from './navStore';
import { useResultsStore } from './resultsStore';

/** run ids starting with 'decode' answer as a 20 000-row decode in 10 windows of 2000 rows (sampleData) */
const DECODE = 'decode-1';
const requests = (api: FakeApi): LikelihoodRequest[] => api.callsOf('getLikelihood').map((c) => c.args[2] as LikelihoodRequest);

describe('likelihood row ranges', () => {
  const windows = { rowsPerWindow: 2000, count: 3 };
  it('decode windows: the last runs to the end', () => {
    expect(windowRange(windows, 6001, 0)).toEqual([0, 2000]);
    expect(windowRange(windows, 6001, 2)).toEqual([4000, 6001]);
    expect(windowRange(windows, 6001, 9)).toEqual([4000, 6001]);
    expect(windowOf(windows, 5999)).toBe(2);
    expect(windowOf(windows, 6000)).toBe(2);
  });

  it('ranges stay inside the decode and keep their length', () => {
    expect(clampRange(-50, 150, 1000)).toEqual([0, 200]);
    expect(clampRange(900, 1100, 1000)).toEqual([800, 1000]);
    expect(clampRange(10, 10, 1000)).toEqual([10, 11]);
    expect(clampRange(0, 5000, 1000)).toEqual([0, 1000]);
    expect(rangeAround(500, 100, 1000)).toEqual([450, 550]);
    expect(rangeAround(10, 100, 1000)).toEqual([0, 100]);
  });
});

describe('useLikelihoodStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('a long decode: the overview of every row, then its first window row by row', async () => {
    const lk = useLikelihoodStore();
    await lk.load(DECODE, 'reference');
    expect(requests(api)).toEqual([
      { maxCols: MAX_COLS, relative: true, maxRows: OVERVIEW_ROWS },
      { maxCols: MAX_COLS, relative: true, startRow: 0, endRow: 2000, maxRows: DETAIL_ROWS },
    ]);
    expect(lk.overview?.rowsPerRow).toBe(20);
    expect(lk.fullResolution).toBe(false);
    expect([lk.detail?.startRow, lk.detail?.endRow, lk.detail?.rowsPerRow]).toEqual([0, 2000, 1]);
    expect(lk.range).toEqual([0, 2000]);
    expect(lk.windowIndex).toBe(0);
    expect(lk.windows).toEqual({ rowsPerWindow: 2000, count: 10 });
  });

  it('zooms to a window, a range, steps on, and centres on a row; the overview is not asked again', async () => {
    const lk = useLikelihoodStore();
    await lk.load(DECODE, 'reference');
    await lk.showWindow(9);
    expect(lk.range).toEqual([18_000, 20_000]);
    await lk.zoom(5000, 5500);
    expect([lk.detail?.startRow, lk.detail?.endRow]).toEqual([5000, 5500]);
    await lk.step(1);
    expect(lk.range).toEqual([5500, 6000]);
    await lk.step(-1);
    await lk.step(-1);
    expect(lk.range).toEqual([4500, 5000]);
    // a click on the overview opens the decode window there
    await lk.centerOn(13_100);
    expect(lk.range).toEqual([12_000, 14_000]);
    expect(lk.windowIndex).toBe(6);
    // past the end: the range keeps its length at the decode's end
    await lk.zoom(19_900, 25_000);
    expect(lk.range).toEqual([14_900, 20_000]);
    const asked = requests(api);
    expect(asked.filter((r) => r.startRow === undefined)).toHaveLength(1);
    expect(asked.at(-1)).toMatchObject({ startRow: 14_900, endRow: 20_000, maxRows: DETAIL_ROWS });
  });

  it('a short likelihood is shown whole from the overview, without a second answer', async () => {
    const lk = useLikelihoodStore();
    await lk.load('run-1', 'reference');
    expect(lk.fullResolution).toBe(true);
    expect(lk.detail).toBe(lk.overview);
    expect(api.callsOf('getLikelihood')).toHaveLength(1);
    await lk.zoom(1, 3);
    expect([lk.detail?.startRow, lk.detail?.endRow]).toEqual([1, 3]);
    await lk.zoom(0, 3);
    expect(lk.detail).toBe(lk.overview);
    expect(api.callsOf('getLikelihood')).toHaveLength(2);
  });

  it('switching strategy or the relative scale keeps the zoomed rows', async () => {
    const lk = useLikelihoodStore();
    await lk.load(DECODE, 'reference');
    await lk.zoom(7000, 7400);
    await lk.selectStrategy('compensated');
    expect(lk.detail?.strategy).toBe('compensated');
    expect(lk.range).toEqual([7000, 7400]);
    await lk.setRelative(false);
    expect(requests(api).slice(-2).map((r) => [r.relative, r.startRow])).toEqual([[false, undefined], [false, 7000]]);
    expect(lk.detail?.relative).toBe(false);
    // another run starts over at its first window
    await lk.load('decode-2', 'reference');
    expect(lk.range).toEqual([0, 2000]);
  });

  it('brings −∞ and NaN back from the nulls JSON carries them as', async () => {
    api.getLikelihood = async () => {
      const v = likelihoodView();
      return { ...v, values: v.values.map((x) => (Number.isFinite(x) ? x : null)) as number[], decodedPosition: [null, 15, 5] as unknown as number[] };
    };
    const lk = useLikelihoodStore();
    await lk.load('run-1', 'reference');
    expect(lk.overview?.values[4]).toBe(-Infinity);
    expect(lk.overview?.decodedPosition[0]).toBeNaN();
  });

  it('an answer for an older request does not replace the newer zoom', async () => {
    const lk = useLikelihoodStore();
    await lk.load(DECODE, 'reference');
    const real = api.getLikelihood;
    let releaseOld: () => void = () => undefined;
    api.getLikelihood = (id, s, r) => new Promise((resolve) => (releaseOld = () => void real(id, s, r).then(resolve)));
    const old = lk.zoom(100, 200);
    api.getLikelihood = real;
    await lk.zoom(300, 400);
    releaseOld();
    await old;
    expect([lk.detail?.startRow, lk.range]).toEqual([300, [300, 400]]);
  });

  it('a failed zoom says why and keeps the overview', async () => {
    const lk = useLikelihoodStore();
    await lk.load(DECODE, 'reference');
    api.getLikelihood = async () => {
      throw Object.assign(new Error('request.endRow: the decode has 20000 rows, got 30000'), { code: 'BAD_ARGUMENT' });
    };
    await lk.zoom(0, 100);
    expect(lk.detailError).toMatch(/request\.endRow/);
    expect(lk.overview).not.toBeNull();
    expect(lk.error).toBeNull();
  });
});

describe('useLikelihoodStore and the address', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('opens the run and strategy the address names, with that run in the results store', async () => {
    const nav = useNavStore();
    nav.go('decode', { run: DECODE, strategy: 'compensated' });
    const lk = useLikelihoodStore();
    await lk.followRoute();
    expect(useResultsStore().runId).toBe(DECODE);
    expect([lk.runId, lk.strategy]).toEqual([DECODE, 'compensated']);
    expect(api.callsOf('getLikelihood')[0]!.args.slice(0, 2)).toEqual([DECODE, 'compensated']);
    // the same address again (a re-render, a second watch) asks nothing more
    await lk.followRoute();
    expect(api.callsOf('getLikelihood')).toHaveLength(2);
  });

  it('without a strategy in the address: the report\'s first; without a run: the Results view\'s', async () => {
    const nav = useNavStore();
    nav.go('decode', { run: 'run-7' });
    const lk = useLikelihoodStore();
    await lk.followRoute();
    // the sample report lists reference, then compensated
    expect([lk.runId, lk.strategy]).toEqual(['run-7', 'reference']);
    nav.go('decode');
    await useResultsStore().load('run-8');
    await lk.followRoute();
    expect(lk.runId).toBe('run-8');
  });

  it('picking a strategy or a run changes the address, which back and forward follow', async () => {
    const nav = useNavStore();
    nav.go('decode', { run: 'run-1' });
    const lk = useLikelihoodStore();
    await lk.followRoute();
    lk.pickStrategy('compensated');
    expect(nav.params).toEqual({ run: 'run-1', strategy: 'compensated' });
    await lk.followRoute();
    expect(lk.strategy).toBe('compensated');
    await lk.pickRun('run-2');
    // the new run has the strategy shown, so it stays
    expect(nav.params).toEqual({ run: 'run-2', strategy: 'compensated' });
    await lk.followRoute();
    expect([lk.runId, lk.strategy]).toEqual(['run-2', 'compensated']);
    // back: the earlier address again
    nav.go('decode', { run: 'run-1', strategy: 'compensated' });
    await lk.followRoute();
    expect([lk.runId, lk.strategy, lk.view?.strategy]).toEqual(['run-1', 'compensated', 'compensated']);
  });
});
