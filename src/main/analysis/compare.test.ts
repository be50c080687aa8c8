import { describe, expect, it } from 'vitest';
import type { StrategyResult } from '../../shared/report';
import { compareReports, deltaPercent, formatComparisonTable } from './compare';
import { report, okResult, timing } from './testData';

function run(decodeMs: number, extra: Partial<StrategyResult> = {}): StrategyResult {
  return okResult('reference', 0, {
    total: undefined,
    encode: timing(50, [20, 20, 20]),
    decode: timing(300, [decodeMs, decodeMs, decodeMs]),
    memory: { estimatedPeakBytes: 1e6, measuredPeakTensorBytes: 4e6, peakRssBytes: 200e6 },
    ...extra,
  });
}

describe('deltaPercent', () => {
  it('is (b − a)/a in percent, 0 for 0 → 0 and undefined from nothing or a missing side', () => {
    expect(deltaPercent(100, 120)).toBeCloseTo(20, 12);
    expect(deltaPercent(100, 80)).toBeCloseTo(-20, 12);
    expect(deltaPercent(0, 0)).toBe(0);
    expect(deltaPercent(0, 5)).toBeNull();
    expect(deltaPercent(null, 5)).toBeNull();
  });
});

describe('compareReports', () => {
  const a = report([run(100)]);
  const b = report([run(120)]);

  it('flags a 20 % slower decode at threshold 10', () => {
    const c = compareReports(a, b, 10);
    expect(c.regressed).toBe(true);
    const decode = c.rows.find((r) => r.metric === 'reference decode median ms')!;
    expect(decode).toMatchObject({ a: 100, b: 120, regression: true });
    expect(decode.deltaPct).toBeCloseTo(20, 12);
    // total median: 120 → 140
    expect(c.rows.find((r) => r.metric === 'reference total median ms')).toMatchObject({ a: 120, b: 140, regression: true });
    expect(c.rows.filter((r) => r.regression).map((r) => r.metric)).toEqual([
      'reference decode median ms', 'reference total median ms',
    ]);
    expect(c.verdict).toMatch(/^B regresses beyond 10 %: reference decode median \+20\.0 % \(100 ms → 120 ms\)/);
    expect(c.thresholdPct).toBe(10);
  });

  it('does not flag it at threshold 30', () => {
    const c = compareReports(a, b, 30);
    expect(c.regressed).toBe(false);
    expect(c.rows.every((r) => !r.regression)).toBe(true);
    expect(c.verdict).toMatch(/^No regression beyond 30 %; largest increase reference decode median \+20\.0 %/);
  });

  it('flags memory growth and never a speed-up', () => {
    const bigger = report([run(100, { memory: { estimatedPeakBytes: 1e6, measuredPeakTensorBytes: 6e6, peakRssBytes: 200e6 } })]);
    const c = compareReports(a, bigger, 10);
    expect(c.rows.filter((r) => r.regression).map((r) => r.metric)).toEqual(['reference peak tensor bytes']);
    expect(compareReports(b, a, 10).regressed).toBe(false);
  });

  it('compares only strategies present in both and says which are not', () => {
    const withMore = report([run(100), okResult('compensated', 10)]);
    const c = compareReports(withMore, b, 10);
    expect(c.rows.some((r) => r.metric.startsWith('compensated'))).toBe(false);
    const both = compareReports(withMore, report([run(100), okResult('compensated', 12)]), 10);
    // okResult carries totals only: encode/decode/memory rows that neither run measured are left out
    expect(both.rows.filter((r) => r.metric.startsWith('compensated')).map((r) => r.metric)).toEqual([
      'compensated total median ms', 'compensated total first ms',
    ]);
    expect(c.verdict).toContain('only in A: compensated');
    const none = compareReports(report([okResult('logsumexp', 10)]), b, 10);
    expect(none.rows.map((r) => r.metric)).toEqual(['backend init ms']);
    expect(none.verdict).toContain('no strategy ran in both');
  });

  it('keeps a missing measurement as an unflagged row', () => {
    const failed = report([{ strategy: 'reference', resolved: [], status: 'failed', stages: [], kernels: [] }]);
    const c = compareReports(a, failed, 10);
    const decode = c.rows.find((r) => r.metric === 'reference decode median ms')!;
    expect(decode).toEqual({ metric: 'reference decode median ms', a: 100, b: null, deltaPct: null, regression: false });
  });
});

describe('formatComparisonTable', () => {
  it('aligns the columns and marks regressions', () => {
    const text = formatComparisonTable(compareReports(report([run(100)]), report([run(120)]), 10).rows);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^metric\s+A\s+B\s+change$/);
    const decode = lines.find((l) => l.startsWith('reference decode median ms'))!;
    expect(decode).toMatch(/100 ms\s+120 ms\s+\+20\.0 %\s+REGRESSION$/);
    expect(lines.find((l) => l.startsWith('reference peak RSS bytes'))).toMatch(/191 MiB\s+191 MiB\s+\+0\.0 %$/);
    // every value column ends at the same place on every line
    const changeEnd = lines[0]!.length;
    for (const l of lines.slice(1)) expect(l.slice(0, changeEnd).trimEnd().length).toBe(changeEnd);
  });
});
