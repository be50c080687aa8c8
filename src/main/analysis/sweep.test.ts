import { describe, expect, it } from 'vitest';
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import { analyseSweep, formatSweepValue, logLogSlope, sweepPointText, totalSeries } from './sweep';
import { okResult, report } from './testData';

/** a timing with median `ms` and a 95 % interval of ±`halfWidth` (a share of it) */
function timed(ms: number, halfWidth: number): TimingStats {
  return {
    firstMs: ms, samplesMs: [ms, ms, ms, ms], medianMs: ms, meanMs: ms, stdMs: 0, minMs: ms, maxMs: ms, n: 4,
    ci95: [ms * (1 - halfWidth), ms * (1 + halfWidth)],
  };
}

function result(strategy: 'reference' | 'compensated' | 'chunked', ms: number, halfWidth: number): StrategyResult {
  return okResult(strategy, ms, {
    total: timed(ms, halfWidth),
    encode: timed(ms / 4, halfWidth),
    decode: timed((ms * 3) / 4, halfWidth),
    // the report keeps stage sums over the 4 repeats, and spans of the loop's own structure beside them
    stages: [
      { name: 'decode', calls: 4, totalMs: 3 * ms, selfMs: 0 },
      { name: 'electrode 3', calls: 4, totalMs: ms, selfMs: 0 },
      { name: 'mark-kernel', calls: 8, totalMs: 2 * ms, selfMs: 2 * ms },
      { name: 'custom-step', calls: 8, totalMs: ms, selfMs: ms },
      { name: 'occupancy', calls: 4, totalMs: ms / 10, selfMs: ms / 10 },
    ],
  });
}

const VALUES = [10, 20, 40, 80];
/** reference grows with the square of the value, compensated linearly: they meet at 50 (25 ms) */
const referenceMs = (v: number): number => 0.01 * v * v;
const compensatedMs = (v: number): number => 0.5 * v;

function sweepReports(halfWidth: number, compensated = compensatedMs): Report[] {
  return VALUES.map((v) => report([result('reference', referenceMs(v), halfWidth), result('compensated', compensated(v), halfWidth)]));
}

describe('logLogSlope', () => {
  it('recovers the exponent and scale of a power law, with r² 1', () => {
    const s = logLogSlope([10, 20, 40, 80], [3, 12, 48, 192])!;
    expect(s.exponent).toBeCloseTo(2, 12);
    expect(s.scaleMs).toBeCloseTo(0.03, 12);
    expect(s.r2).toBeCloseTo(1, 12);
    expect(s.points).toBe(4);
  });

  it('skips missing and non-positive times; below two points there is no slope; two points have no r²', () => {
    expect(logLogSlope([10, 20, 40], [5, null, 20])).toMatchObject({ exponent: 1, points: 2, r2: null });
    expect(logLogSlope([10, 20], [5, 0])).toBeNull();
    expect(logLogSlope([10, 10], [5, 6])).toBeNull();
  });

  it('says how well the line fits noisy points', () => {
    const s = logLogSlope([1, 2, 4, 8], [1, 2.6, 3.5, 8.4])!;
    expect(s.r2!).toBeGreaterThan(0.9);
    expect(s.r2!).toBeLessThan(1);
  });
});

describe('analyseSweep', () => {
  it('gives each strategy its medians with intervals, per metric, and their slopes', () => {
    const a = analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: sweepReports(0.02) });
    expect(a.strategies.map((s) => s.strategy)).toEqual(['reference', 'compensated']);
    const ref = a.strategies[0]!;
    // the engine's stages in its order, then others; never encode/decode again, nor one electrode's or block's span
    expect(ref.series.map((s) => s.metric)).toEqual(['total', 'encode', 'decode', 'occupancy', 'mark-kernel', 'custom-step']);
    expect(a.metrics).toEqual(['total', 'encode', 'decode', 'occupancy', 'mark-kernel', 'custom-step']);
    const total = totalSeries(ref);
    expect(total.points.map((p) => p?.ms)).toEqual(VALUES.map(referenceMs));
    expect(total.points[0]!.ci95![0]).toBeCloseTo(0.98, 12);
    expect(total.slope!.exponent).toBeCloseTo(2, 10);
    expect(totalSeries(a.strategies[1]!).slope!.exponent).toBeCloseTo(1, 10);
    expect(ref.series[1]!.slope!.exponent).toBeCloseTo(2, 10);
    // a stage is a sum over the repeats in the report: the sweep shows it per repeat, without an interval
    const stage = ref.series[4]!;
    expect(stage.statistic).toBe('mean per repeat');
    expect(stage.points[1]).toEqual({ ms: (2 * referenceMs(20)) / 4, ci95: null, n: 4 });
  });

  it('finds a known crossover, interpolated on the log-log lines, significant when the intervals separate', () => {
    const a = analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: sweepReports(0.02) });
    expect(a.fastest).toEqual(['reference', 'reference', 'reference', 'compensated']);
    expect(a.crossovers).toHaveLength(1);
    const c = a.crossovers[0]!;
    expect(c).toMatchObject({ from: 'reference', to: 'compensated', below: 40, above: 80, significant: true });
    expect(c.at!).toBeCloseTo(50, 9);
    expect(c.atMs!).toBeCloseTo(25, 9);
    expect(c.text).toMatch(/^compensated overtakes reference at ≈ 50 encoding spikes per electrode \(between 40 and 80\); significant/);
    expect(a.clearlyFastest).toEqual(['reference', 'reference', 'reference', 'compensated']);
    expect(a.conclusion).toBe(`${c.text}. Beyond the noise (95 % intervals apart): reference fastest at 10, 20 and 40; compensated fastest at 80.`);
  });

  it('calls a crossover not significant when the intervals overlap at an end', () => {
    // at 40: reference 16 ms, compensated 20 ms; ±15 % makes [13.6, 18.4] and [17, 23] overlap
    const a = analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: sweepReports(0.15) });
    const c = a.crossovers[0]!;
    expect(c.at!).toBeCloseTo(50, 9);
    expect(c.significant).toBe(false);
    // at 80 (64 ms against 40 ms) the intervals separate: only 40 is named
    expect(c.text).toMatch(/; not significant: the 95 % intervals overlap \(or are missing\) at 40$/);
    // 20 ms against 16 ms at 40 is within the noise; the other values are not
    expect(a.clearlyFastest).toEqual(['reference', 'reference', null, 'compensated']);
    expect(a.conclusion).toMatch(/Beyond the noise \(95 % intervals apart\): reference fastest at 10 and 20; compensated fastest at 80; no significant difference at 40\.$/);
  });

  it('without intervals (one repeat) a crossover is never significant', () => {
    const reports = sweepReports(0.02);
    for (const r of reports) for (const s of r.strategies) delete s.total!.ci95;
    expect(analyseSweep({ vary: 'bins', values: VALUES, reports }).crossovers[0]!.significant).toBe(false);
  });

  it('says "no crossover in range" and who wins throughout when the fastest never changes', () => {
    const a = analyseSweep({ vary: 'encoding-spikes', values: VALUES, reports: sweepReports(0.02, (v) => 2 * referenceMs(v)) });
    expect(a.crossovers).toEqual([]);
    expect(a.fastest).toEqual(['reference', 'reference', 'reference', 'reference']);
    expect(a.conclusion).toBe(
      'no crossover in range 10–80 encoding spikes per electrode: reference is fastest at all 4 values measured. ' +
        'Beyond the noise (95 % intervals apart): reference fastest at 10, 20, 40 and 80.',
    );
  });

  it('steps over a value whose run has no report, and interpolates across it', () => {
    const reports: (Report | null)[] = sweepReports(0.02);
    reports[2] = null;
    const a = analyseSweep({ vary: 'electrodes', values: VALUES, reports });
    expect(a.fastest[2]).toBeNull();
    expect(totalSeries(a.strategies[0]!).points[2]).toBeNull();
    expect(a.crossovers.map((c) => [c.below, c.above])).toEqual([[20, 80]]);
    expect(a.crossovers[0]!.at!).toBeCloseTo(50, 9);
  });

  it('leaves out a failed strategy at that value', () => {
    const reports = sweepReports(0.02);
    reports[0]!.strategies[1] = { strategy: 'compensated', resolved: [], status: 'failed', stages: [], kernels: [] };
    const a = analyseSweep({ vary: 'features', values: VALUES, reports });
    expect(totalSeries(a.strategies[1]!).points[0]).toBeNull();
    expect(totalSeries(a.strategies[1]!).slope!.points).toBe(3);
  });

  it('with nothing completed, says so', () => {
    expect(analyseSweep({ vary: 'bins', values: [1, 2], reports: [null, null] }).conclusion).toMatch(/^no run completed/);
  });
});

describe('sweep text', () => {
  it('formats values and points', () => {
    expect(formatSweepValue(1600)).toBe('1 600');
    expect(formatSweepValue(566.4)).toBe('566');
    expect(formatSweepValue(12.345)).toBe('12.3');
    expect(sweepPointText({ ms: 100, ci95: [95, 105], n: 5 })).toBe('100 ms ±5.0 %');
    expect(sweepPointText({ ms: 100, ci95: null, n: 1 })).toBe('100 ms');
    expect(sweepPointText(null)).toBe('-');
  });
});
