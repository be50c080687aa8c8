import { describe, expect, it } from 'vitest';
import { headlineTimeText } from '../../../shared/api';
import type { Report, StrategyResult } from '../../../shared/report';
import { timingStats } from '../../analysis';
import { headlineOf } from './headline';

const row = (strategy: 'reference' | 'logsumexp', firstMs: number, samplesMs: number[]): StrategyResult => ({
  strategy, resolved: [strategy], status: 'ok', stages: [], kernels: [], total: timingStats(firstMs, samplesMs),
});

describe('headlineOf', () => {
  it('marks a strategy timed by its first call alone, so that no list calls that time a warm median', () => {
    // a run cancelled during logsumexp's repeats: reference has warm repeats, logsumexp only its cold call
    const report = { strategies: [row('reference', 90, [26, 25, 27]), row('logsumexp', 400, [])] } as unknown as Report;
    const [warm, cold] = headlineOf(report);
    expect(warm).toEqual({ strategy: 'reference', totalMedianMs: 26 });
    expect(cold).toEqual({ strategy: 'logsumexp', totalMedianMs: 400, firstCallOnly: true });
    expect(headlineTimeText(warm!)).toBe('reference 26 ms');
    expect(headlineTimeText(cold!)).toBe('logsumexp 400 ms (first call)');
  });
});
