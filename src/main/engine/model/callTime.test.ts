import { describe, expect, it } from 'vitest';
import { summarizeDataset } from '../../../shared/dataset';
import { makePreset } from '../../data';
import { predictedCallMs } from './callTime';
import type { Calibration } from './calibrationTypes';

const calibration: Calibration = {
  backend: 'wasm', device: 'CPU', matmulGflops: 20, expGelemsPerS: 0.5, logGelemsPerS: 0.5, bandwidthGBps: 10,
  measuredAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
};

describe('predictedCallMs', () => {
  const dataset = summarizeDataset(makePreset('medium', { seed: 1 }));

  it('has no prediction without a calibration', () => {
    expect(predictedCallMs('reference', dataset, { blockSize: 100 })).toBeUndefined();
  });

  it('ranks the exp-bound log-space strategies above the matmul-bound ones, as measured on medium', () => {
    const ms = (s: 'reference' | 'logsumexp' | 'compensated' | 'series') => predictedCallMs(s, dataset, { blockSize: 100, calibration })!;
    expect(ms('logsumexp')).toBeGreaterThan(5 * ms('reference'));
    expect(ms('logsumexp')).toBeGreaterThan(5 * ms('compensated'));
    // series stands in as compensated, its upper bound
    expect(ms('series')).toBe(ms('compensated'));
  });
});
