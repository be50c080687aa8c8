import { describe, expect, it } from 'vitest';
import type { StrategyResult, TimingStats } from '../../shared/report';
import { slopeExponentText } from '../../shared/sweep';
import { analyseSweep, logLogSlope, totalSeries } from './sweep';
import { fixedCostDominates } from './sweepScaling';
import { okResult, report } from './testData';

const VALUES = [100, 200, 400, 800, 1600];

function judged(ms: number[]): boolean {
  return fixedCostDominates(logLogSlope(VALUES, ms)!, VALUES, ms);
}

function timed(ms: number): TimingStats {
  return { firstMs: ms, samplesMs: [ms, ms, ms], medianMs: ms, meanMs: ms, stdMs: 0, minMs: ms, maxMs: ms, n: 3, ci95: [ms * 0.95, ms * 1.05] };
}

function sweepOf(msAt: (v: number) => number): ReturnType<typeof analyseSweep> {
  const result = (v: number): StrategyResult => okResult('reference', msAt(v), { total: timed(msAt(v)), stages: [] });
  return analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: VALUES.map((v) => report([result(v)])) });
}

describe('fixed cost in a sweep', () => {
  it('calls a negative exponent fixed cost, not a scaling law', () => {
    // the case that was reported as time ∝ spikes^-0.25
    const ms = VALUES.map((v) => 40 * v ** -0.25);
    expect(logLogSlope(VALUES, ms)!.exponent).toBeCloseTo(-0.25, 10);
    expect(judged(ms)).toBe(true);
  });

  it('calls a time that barely changes across the range fixed cost', () => {
    expect(judged([50, 51, 50.5, 52, 53])).toBe(true);
  });

  it('calls a line whose fixed part is most of the time even at the largest value fixed cost', () => {
    // 30 ms of start-up and 0.01 ms per spike: 46 ms at 1 600, two thirds of it fixed
    expect(judged(VALUES.map((v) => 30 + 0.01 * v))).toBe(true);
  });

  it('keeps real growth a scaling law', () => {
    expect(judged(VALUES.map((v) => 0.05 * v))).toBe(false);
    expect(judged(VALUES.map((v) => 1e-4 * v * v))).toBe(false);
    expect(judged(VALUES.map((v) => 2 + 0.05 * v))).toBe(false);
    expect(judged(VALUES.map((v) => Math.sqrt(v)))).toBe(false);
  });

  it('says so in the sweep result and in the slope text', () => {
    const flat = sweepOf((v) => 40 * v ** -0.25);
    const slope = totalSeries(flat.strategies[0]!).slope!;
    expect(slope.fixedCostDominates).toBe(true);
    expect(slopeExponentText(slope)).toBe('fixed cost');
    expect(flat.warnings).toEqual([
      'reference: fixed cost dominates: time does not grow with encoding spikes per electrode over this range (fitted log-log slope -0.25 is not a scaling law)',
    ]);
    const growing = sweepOf((v) => 0.05 * v);
    expect(totalSeries(growing.strategies[0]!).slope!.fixedCostDominates).toBe(false);
    expect(slopeExponentText(totalSeries(growing.strategies[0]!).slope)).toBe('1.00');
    expect(growing.warnings).toEqual([]);
  });
});
