import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { PosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { posteriorView, SAMPLE_POSTERIOR_ROWS } from '../testing/samplePosterior';
import { bandsOf, periodsOf, POSTERIOR_DETAIL_ROWS, POSTERIOR_OVERVIEW_COLS, POSTERIOR_OVERVIEW_ROWS, rangeAroundPeriod, revivedPosterior, timeRowsOf } from './posteriorRows';
import { usePosteriorStore } from './posteriorStore';

const requests = (api: FakeApi): PosteriorRequest[] => api.callsOf('getPosterior').map((c) => c.args[1] as PosteriorRequest);

describe('posterior rows', () => {
  it('periods of a thinned view are given in the decode\'s own time rows', () => {
    // 100 rows as 25 displayed rows of 4 (the sample shows each block's first row): rows 30–39
    // are above from displayed row 8 (rows 32–35) to 9 (36–39)
    const v = posteriorView({ maxRows: 25 });
    const periods = periodsOf(v, 0.8);
    expect(periods.map((p) => [p.startRow, p.endRow, p.firstRow, p.endTimeRow])).toEqual([[8, 10, 32, 40], [23, 25, 92, 100]]);
    expect(timeRowsOf(v, 24)).toEqual([96, 100]);
    expect(bandsOf(v, 0.8)).toEqual([[8, 10], [23, 25]]);
    expect(periodsOf(posteriorView({}, 'decoder-1'), 0.8)).toEqual([]);
  });

  it('zooming to a period keeps some rows either side, inside the decode', () => {
    const [first, last] = periodsOf(posteriorView(), 0.8);
    expect(rangeAroundPeriod(first!, SAMPLE_POSTERIOR_ROWS)).toEqual([25, 45]);
    expect(rangeAroundPeriod(last!, SAMPLE_POSTERIOR_ROWS)).toEqual([85, 100]);
  });

  it('null from the WebSocket becomes NaN again', () => {
    const v = posteriorView({ startRow: 0, endRow: 2 });
    const wire = JSON.parse(JSON.stringify({ ...v, values: [Number.NaN, ...v.values.slice(1)], mapPosition: [Number.NaN, 1] })) as PosteriorView;
    const back = revivedPosterior(wire);
    expect(back.values[0]).toBeNaN();
    expect(back.mapPosition[0]).toBeNaN();
    expect(back.stateProbabilities).toHaveLength(4);
  });
});

describe('usePosteriorStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('a detector run: the whole decode once, the charts showing it, periods listed and drawn', async () => {
    const post = usePosteriorStore();
    await post.open('run-1');
    expect(requests(api)).toEqual([
      { source: 'acausal', maxRows: POSTERIOR_OVERVIEW_ROWS, maxCols: POSTERIOR_OVERVIEW_COLS },
      { source: 'acausal', startRow: 0, endRow: SAMPLE_POSTERIOR_ROWS, maxRows: POSTERIOR_DETAIL_ROWS, maxCols: 500 },
    ]);
    expect([post.overview?.cols, post.detail?.cols]).toEqual([1, 4]);
    expect(post.range).toEqual([0, SAMPLE_POSTERIOR_ROWS]);
    expect(post.isDetector).toBe(true);
    expect(post.periods.map((p) => [p.firstRow, p.endTimeRow])).toEqual([[30, 40], [90, 100]]);
    expect(post.bands).toEqual([[30, 40], [90, 100]]);
    // the same run again asks nothing
    await post.open('run-1');
    expect(requests(api)).toHaveLength(2);
  });

  it('the threshold decides the periods and stays within [0, 1]', async () => {
    const post = usePosteriorStore();
    await post.open('run-1');
    post.setThreshold(0.99);
    expect(post.periods).toEqual([]);
    post.setThreshold(-3);
    expect(post.threshold).toBe(0);
    expect(post.periods.map((p) => [p.firstRow, p.endTimeRow])).toEqual([[0, 100]]);
    post.setThreshold(Number.NaN);
    expect(post.threshold).toBe(0);
  });

  it('a period row zooms the charts to it, asking only for those rows', async () => {
    const post = usePosteriorStore();
    await post.open('run-1');
    await post.zoomToPeriod(post.periods[0]!);
    expect(post.range).toEqual([25, 45]);
    expect(requests(api)[2]).toEqual({ source: 'acausal', startRow: 25, endRow: 45, maxRows: POSTERIOR_DETAIL_ROWS, maxCols: 500 });
    expect(post.detail?.startRow).toBe(25);
    expect(post.bands).toEqual([[5, 15]]);
    // the table still lists every period of the decode
    expect(post.periods).toHaveLength(2);
  });

  it('switching to the causal posterior asks again for the same rows', async () => {
    const post = usePosteriorStore();
    await post.open('run-1');
    await post.zoom(10, 50);
    await post.setSource('causal');
    expect(requests(api).slice(-2).map((r) => [r.source, r.startRow, r.endRow])).toEqual([['causal', undefined, undefined], ['causal', 10, 50]]);
    expect(requests(api).at(-2)?.maxCols).toBe(POSTERIOR_OVERVIEW_COLS);
    expect(post.detail?.source).toBe('causal');
  });

  it('a decoder has no state track and no periods', async () => {
    const post = usePosteriorStore();
    await post.open('decoder-1');
    expect(post.isDetector).toBe(false);
    expect(post.periods).toEqual([]);
  });

  it('a run without a posterior says so, and is not an error', async () => {
    api.getPosterior = async () => {
      throw new AppError('NOT_FOUND', 'run run-2 has no posterior: decode with --model decoder or --model detector to get one.');
    };
    const post = usePosteriorStore();
    await post.open('run-2');
    expect(post.missing).toContain('--model decoder');
    expect(post.error).toBeNull();
    expect(post.overview).toBeNull();
  });

  it('any other failure is an error to show', async () => {
    api.getPosterior = async () => {
      throw new AppError('IO', 'posterior/acausal_posterior.npy is truncated');
    };
    const post = usePosteriorStore();
    await post.open('run-3');
    expect(post.error).toContain('truncated');
    expect(post.missing).toBeNull();
  });
});
