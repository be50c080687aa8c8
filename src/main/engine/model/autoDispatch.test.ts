import { describe, expect, it } from 'vitest';
import {
  electrodeStrategy, predictedSeconds, resolveFastestStrategy, resolveNldDispatch, seriesPredictWork, type ProblemSizes, type SeriesReach,
} from './index';
import { addWork, type Work } from './opWork';
import { MODELLED_STAGES, predictStageWork } from './stageWork';
import type { Calibration } from './calibrationTypes';

/** a made-up backend: the figures only have to be positive and finite */
const CALIBRATION: Calibration = {
  backend: 'wasm', device: 'test', matmulGflops: 20, expGelemsPerS: 0.5, logGelemsPerS: 0.5, bandwidthGBps: 10,
  measuredAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
};

const sizes: ProblemSizes = { nEnc: 4000, nDec: 3000, nBins: 400, nFeatures: 2, positionDims: 1, nTime: 0 };
const allNear: SeriesReach = { nNear: sizes.nDec, nFeatures: 10, factorKept: true, order: 3 };

function compensatedWork(s: ProblemSizes, blockSize: number): Work {
  const stages = predictStageWork('compensated', s, { blockSize, encTileSize: s.nEnc, posTileSize: 128 });
  return addWork(...MODELLED_STAGES.map((stage) => stages[stage]));
}

describe('auto: the fastest strategy whose bound holds', () => {
  it('picks series where its bound covers the spikes and the model predicts it faster, saying both times', () => {
    const c = resolveFastestStrategy(sizes, { blockSize: 100, calibration: CALIBRATION }, allNear);
    expect(c.strategy).toBe('series');
    expect(c.reason).toMatch(/^series .* vs compensated .* predicted on wasm$/);
  });

  it('picks the cheaper by the model: series loses where one spike would pay for building its factor', () => {
    const one = { ...sizes, nDec: 1 };
    const reach: SeriesReach = { nNear: 1, nFeatures: 1000, factorKept: false, order: 8 };
    const o = { blockSize: 100, calibration: CALIBRATION };
    const series = predictedSeconds(seriesPredictWork(one, reach, o), CALIBRATION);
    const compensated = predictedSeconds(compensatedWork(one, 100), CALIBRATION);
    expect(series).toBeGreaterThan(compensated);
    expect(resolveFastestStrategy(one, o, reach).strategy).toBe('compensated');
    // the same electrode with many spikes and the factor kept: series is the cheaper one, and chosen
    const many = predictedSeconds(seriesPredictWork(sizes, allNear, o), CALIBRATION);
    expect(many).toBeLessThan(predictedSeconds(compensatedWork(sizes, 100), CALIBRATION));
    expect(resolveFastestStrategy(sizes, o, allNear).strategy).toBe('series');
  });

  it('follows the calibration: the choice is the lower of the two predicted times under each', () => {
    const reach: SeriesReach = { nNear: 40, nFeatures: 200, factorKept: false, order: 8 };
    const s = { ...sizes, nDec: 40 };
    const slowExp = { ...CALIBRATION, expGelemsPerS: 1e-4 };
    const slowMatmul = { ...CALIBRATION, matmulGflops: 1e-3 };
    for (const calibration of [CALIBRATION, slowExp, slowMatmul]) {
      const o = { blockSize: 100, calibration };
      const series = predictedSeconds(seriesPredictWork(s, reach, o), calibration);
      const compensated = predictedSeconds(compensatedWork(s, 100), calibration);
      expect(resolveFastestStrategy(s, o, reach).strategy).toBe(series < compensated ? 'series' : 'compensated');
    }
  });

  it('never picks series where its bound covers no spike, however cheap its work', () => {
    const none: SeriesReach = { nNear: 0, nFeatures: 1, factorKept: true, order: 0 };
    const c = resolveFastestStrategy(sizes, { blockSize: 100, calibration: CALIBRATION }, none);
    expect(c.strategy).toBe('compensated');
    expect(c.reason).toContain('series excluded: its error bound covers none of the 3000 decoding spikes');
  });

  it('above 8 features, leaves series out unless its bound covers every spike', () => {
    const high = { ...sizes, nFeatures: 9 };
    const o = { blockSize: 100, calibration: CALIBRATION };
    const partial = resolveFastestStrategy(high, o, { ...allNear, nNear: high.nDec - 1 });
    // NLD's dispatch instead: its B·E·P (640 MB) passes the working-set cap, so in position tiles
    expect(partial.strategy).toBe('logsumexp-tiled');
    expect(partial.reason).toContain('no bound');
    expect(resolveFastestStrategy(high, o, allNear).strategy).toBe('series');
  });

  it('leaves series out where its estimated peak exceeds the memory budget', () => {
    const c = resolveFastestStrategy(sizes, { blockSize: 100, calibration: CALIBRATION, memoryBudgetBytes: 1e6 }, allNear);
    expect(c.strategy).toBe('streaming');
    expect(c.reason).toContain('exceeds the budget');
  });

  it("is NLD's dispatch without a calibration or without the series' plan", () => {
    expect(resolveFastestStrategy(sizes, { blockSize: 100 }, allNear)).toMatchObject({ strategy: 'compensated', reason: expect.stringContaining('no backend calibration') });
    expect(resolveFastestStrategy(sizes, { blockSize: 100, calibration: CALIBRATION }).strategy).toBe('compensated');
  });
});

describe('nld-dispatch: the heuristic auto followed before', () => {
  const o = { blockSize: 100 };
  it('is resolveNldDispatch per electrode, whatever the calibration and the plan', () => {
    for (const s of [sizes, { ...sizes, nFeatures: 9 }, { ...sizes, nEnc: 0 }]) {
      const nld = resolveNldDispatch(s, o);
      const choice = electrodeStrategy('nld-dispatch', s, { ...o, calibration: CALIBRATION }, allNear);
      expect(choice).toMatchObject({ strategy: nld.strategy, reason: nld.reason });
    }
  });

  it('names a strategy as asked, with no reason', () => {
    expect(electrodeStrategy('series', sizes, o)).toEqual({ strategy: 'series' });
  });
});

describe('auto after the probe', () => {
  const o = { blockSize: 100, calibration: CALIBRATION };

  it("follows the probe against the cost model, and says both", () => {
    // the model picks series here (the first case above); the probe measured the dispatch faster
    const c = resolveFastestStrategy(sizes, { ...o, probed: { faster: 'dispatch', summary: 'series 90 ms, compensated 40 ms on e0' } }, allNear);
    expect(c.strategy).toBe('compensated');
    expect(c.reason).toMatch(/^measured: series 90 ms, compensated 40 ms on e0; the cost model predicted series \(series .* predicted on wasm\)$/);
  });

  it('takes series where it measured faster only where its bound holds', () => {
    const probed = { faster: 'series' as const, summary: 'series 10 ms, compensated 40 ms on e0' };
    expect(resolveFastestStrategy(sizes, { ...o, probed }, allNear)).toMatchObject({ strategy: 'series', reason: 'measured: series 10 ms, compensated 40 ms on e0' });
    // spikes out of the series' reach are computed exactly: the probe timed that, so series stands
    const none: SeriesReach = { ...allNear, nNear: 0 };
    expect(resolveFastestStrategy(sizes, { ...o, probed }, none).strategy).toBe('series');
    // above the features compensated takes, the spikes out of reach would have no bound: the dispatch
    const wide = { ...sizes, nFeatures: 40 };
    const c = resolveFastestStrategy(wide, { ...o, probed }, { ...allNear, nNear: 10 });
    expect(c.strategy).not.toBe('series');
    expect(c.reason).toMatch(/series excluded: its bound covers 10 of 3000 spikes, and above \d+ features/);
  });

  it("makes the dispatch the backend's fused compensated where it has one", () => {
    const probed = { faster: 'dispatch' as const, summary: 'x' };
    expect(resolveFastestStrategy(sizes, { ...o, probed, fusedLikelihood: true }, allNear).strategy).toBe('compensated');
  });
});
