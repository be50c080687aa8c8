import { describe, expect, it } from 'vitest';
import type { StrategyResult, TimingStats } from '../../shared/report';
import { SWEEP_FORMAT, type SweepResult } from '../../shared/sweep';
import { analyseSweep } from '../analysis';
import { okResult, report } from '../analysis/testData';
import { sweepText } from './sweepText';

const VALUES = [100, 400, 1600];

function timed(ms: number): TimingStats {
  return { firstMs: ms, samplesMs: [ms, ms, ms], medianMs: ms, meanMs: ms, stdMs: 0, minMs: ms, maxMs: ms, n: 3, ci95: [ms * 0.95, ms * 1.05] };
}

function sweepOf(msAt: (v: number) => number): SweepResult {
  const result = (v: number): StrategyResult => okResult('reference', msAt(v), { total: timed(msAt(v)), stages: [] });
  const analysis = analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: VALUES.map((v) => report([result(v)])) });
  return {
    format: SWEEP_FORMAT, id: '20260101-120000-abcdef', createdAt: '2026-01-01T12:00:00.000Z', updatedAt: '2026-01-01T12:00:00.000Z',
    status: 'completed', vary: 'encoding-spikes', values: VALUES, runIds: VALUES.map(() => null),
    runs: VALUES.map((value) => ({ value, runId: null, status: 'completed', dataPath: 'data.npz' })),
    data: 'preset:small', config: report([]).config, ...analysis, notes: [],
  };
}

describe('sweepText', () => {
  it('prints fixed cost instead of a negative slope, and says why', () => {
    const text = sweepText(sweepOf((v) => 40 * v ** -0.25));
    expect(text).not.toContain('-0.25 (');
    expect(text).toMatch(/reference\s+fixed cost/);
    expect(text).toContain('warning: reference: fixed cost dominates: time does not grow with encoding spikes per electrode over this range');
  });

  it('prints a growing time as its slope', () => {
    const text = sweepText(sweepOf((v) => 0.05 * v));
    expect(text).toMatch(/reference\s+1\.00 \(1\.00\)/);
    expect(text).not.toContain('fixed cost dominates');
  });
});
