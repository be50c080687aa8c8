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
    expect(c.verdict).toMatch(/^B regresses beyond 10 %: reference decode median \+20\.0 % \(100 ms → 120 ms, B\/A 1\.20× \(95 % CI 1\.20–1\.20\)\)/);
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

  it("compares an external engine's row like a strategy's, its memory that of its process tree", () => {
    const engine = (ms: number, rss: number): StrategyResult => okResult('nld:clusterless_kde', ms, {
      external: { engine: 'nld:clusterless_kde', version: '0.1', device: 'cpu', dtype: 'float32', info: {}, command: ['python3'], exitCode: 0, peakRssBytes: rss },
    });
    const c = compareReports(report([run(100), engine(1000, 1e9)]), report([run(100), engine(1000, 2e9)]), 10);
    expect(c.rows.find((r) => r.metric === 'nld:clusterless_kde total median ms')).toMatchObject({ a: 1000, b: 1000, regression: false });
    expect(c.rows.find((r) => r.metric === 'nld:clusterless_kde peak RSS bytes')).toMatchObject({ a: 1e9, b: 2e9, regression: true });
  });

  it('keeps a missing measurement as an unflagged row', () => {
    const failed = report([{ strategy: 'reference', resolved: [], status: 'failed', stages: [], kernels: [] }]);
    const c = compareReports(a, failed, 10);
    const decode = c.rows.find((r) => r.metric === 'reference decode median ms')!;
    expect(decode).toEqual({ metric: 'reference decode median ms', a: 100, b: null, deltaPct: null, regression: false, judgedBy: 'not judged' });
  });
});

describe('compareReports against noise', () => {
  /** warm samples spread ±`spread` around `ms`, in a fixed order */
  const spreadSamples = (ms: number, spread: number, n = 9): number[] =>
    Array.from({ length: n }, (_, i) => ms * (1 + spread * Math.sin(1 + 2.3 * i)));
  const noisyRun = (samples: number[]): StrategyResult => run(0, { decode: timing(300, samples) });

  it('calls two runs with the same spread of samples within noise, even past the threshold', () => {
    // two draws of the same spread whose medians land 15 % apart
    const a = report([noisyRun([70, 85, 95, 100, 118, 130, 150])]);
    const b = report([noisyRun([72, 88, 112, 115, 120, 135, 148])]);
    const c = compareReports(a, b, 10);
    const decode = c.rows.find((r) => r.metric === 'reference decode median ms')!;
    expect(decode.deltaPct!).toBeGreaterThan(10);
    expect(decode.ratioCi95![0]).toBeLessThan(1);
    expect(decode).toMatchObject({ regression: false, withinNoise: true, judgedBy: 'interval' });
    expect(c.regressed).toBe(false);
    expect(c.verdict).toMatch(/^No regression beyond 10 %: within noise, the interval of B\/A holds 1 for reference decode median \+\d+\.\d % \(.*B\/A 1\.\d\d× \(95 % CI 0\.\d\d–1\.\d\d\)\)/);
    expect(compareReports(a, a, 10)).toMatchObject({ regressed: false });
  });

  it('flags a real 2× change as a regression, its interval far from 1', () => {
    const samples = spreadSamples(100, 0.3);
    const c = compareReports(report([noisyRun(samples)]), report([noisyRun(samples.map((x) => 2 * x))]), 10);
    const decode = c.rows.find((r) => r.metric === 'reference decode median ms')!;
    expect(decode.ratioCi95![0]).toBeGreaterThan(1.3);
    expect(decode).toMatchObject({ regression: true, withinNoise: false });
    expect(c.regressed).toBe(true);
  });

  it('notes a run measured on a busy machine, since its intervals do not hold the difference in load', () => {
    const a = report([run(100)]);
    const b = report([run(100)]);
    b.environment = { ...b.environment, cpus: 2, load: { loadAverageStart: [6.5], loadAverageEnd: [7.9], otherCpuShare: 0.64, busy: true } };
    expect(compareReports(a, b, 10).verdict).toContain(
      'Note: B (load 7.90 on 2 cores, other processes 64.0 % of the CPU) was measured on a busy machine: a timing change may come from the load, not the code',
    );
    expect(compareReports(a, a, 10).verdict).not.toContain('busy');
  });

  it('says which runs were measured busy, so a "no regression" between them carries the caveat too', () => {
    const load = { loadAverageStart: [6.5], loadAverageEnd: [7.9], busy: true };
    const [a, b] = [report([run(100)]), report([run(100)])];
    a.environment = { ...a.environment, load };
    b.environment = { ...b.environment, load };
    const c = compareReports(a, b, 10);
    expect(c).toMatchObject({ regressed: false, busy: ['A', 'B'] });
    expect(c.inconclusive).toBeUndefined();
    expect(compareReports(report([run(100)]), report([run(100)]), 10).busy).toBeUndefined();
  });

  it('calls a slower timing between runs of which one was measured busy inconclusive, not a regression; memory still regresses', () => {
    const quiet = report([run(100)]);
    const busySlower = report([run(120)]);
    busySlower.environment = { ...busySlower.environment, cpus: 2, load: { loadAverageStart: [6.5], loadAverageEnd: [7.9], otherCpuShare: 0.64, busy: true } };
    const c = compareReports(quiet, busySlower, 10);
    expect([c.regressed, c.inconclusive]).toEqual([false, true]);
    expect(c.verdict).toMatch(/^Inconclusive \(machine busy\): B looks slower beyond 10 % \(reference decode median \+20\.0 %/);
    // the same change between quiet runs is a regression, as before
    expect(compareReports(quiet, report([run(120)]), 10)).toMatchObject({ regressed: true });
    expect(compareReports(quiet, report([run(120)]), 10).inconclusive).toBeUndefined();
    // memory does not depend on the load: its growth regresses whatever the machine did
    const busyBigger = report([run(100, { memory: { estimatedPeakBytes: 1e6, measuredPeakTensorBytes: 6e6, peakRssBytes: 200e6 } })]);
    busyBigger.environment = busySlower.environment;
    expect(compareReports(quiet, busyBigger, 10)).toMatchObject({ regressed: true });
  });

    it('never flags a single sample: first calls, the backend start, a run of one repeat', () => {
    const one = (ms: number): StrategyResult => run(0, { decode: timing(ms * 3, [ms]) });
    const a = report([one(100)]);
    const b = report([one(200)]);
    b.backend.initMs = a.backend.initMs * 3;
    const c = compareReports(a, b, 10);
    expect(c.regressed).toBe(false);
    for (const metric of ['backend init ms', 'reference decode median ms', 'reference decode first ms']) {
      expect(c.rows.find((r) => r.metric === metric)).toMatchObject({ regression: false, judgedBy: 'not judged' });
    }
    expect(formatComparisonTable(c.rows)).toMatch(/reference decode first ms\s+300 ms\s+600 ms\s+\+100\.0 %\s+one sample$/m);
  });
});

describe('formatComparisonTable', () => {
  it('aligns the columns and marks regressions', () => {
    const text = formatComparisonTable(compareReports(report([run(100)]), report([run(120)]), 10).rows);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^metric\s+A\s+B\s+change\s+B\/A 95 % CI$/);
    const decode = lines.find((l) => l.startsWith('reference decode median ms'))!;
    expect(decode).toMatch(/100 ms\s+120 ms\s+\+20\.0 %\s+\[1\.20, 1\.20\]\s+REGRESSION$/);
    expect(lines.find((l) => l.startsWith('reference peak RSS bytes'))).toMatch(/191 MiB\s+191 MiB\s+\+0\.0 %$/);
    // every value column ends at the same place on every line
    const changeEnd = lines[0]!.indexOf('change') + 'change'.length;
    for (const l of lines.slice(1)) expect(l.slice(0, changeEnd).trimEnd().length).toBe(changeEnd);
    const ciEnd = lines[0]!.length;
    for (const l of lines.filter((x) => x.includes('['))) expect(l.indexOf(']') + 1).toBe(ciEnd);
  });
});
