import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report';
import type { StrategyRoofline } from '../../shared/roofline';
import { exampleReport } from './exampleReport.testdata';
import { fmtSi, fmtSig } from './format';
import { CSV_COLUMNS, renderReportCsv } from './reportCsv';
import { renderReportMarkdown } from './reportMarkdown';

const roofline: StrategyRoofline = {
  flops: 16_673_307, bytes: 12_901_224, arithmeticIntensity: 1.2923817926113057, timeMs: 141.97770899999998,
  achievedGflops: 0.11743608991464993, peakGflops: 6.793818385240438, fractionOfPeak: 0.017285727002914843, ceiling: 'memory',
  stages: [
    {
      stage: 'reduce', calls: 24, flops: 14_468_400, bytes: 6_302_076, arithmeticIntensity: 2.295814902898664, timeMs: 92.62350399999998,
      achievedGflops: 0.15620657149831, peakGflops: 9.866092093431975, fractionOfPeak: 0.015832669107386437, ceiling: 'matmul',
    },
  ],
};

/** what a real run on the small preset carried: per-electrode resolutions, float noise, a verdict that holds 1 */
function realisticReport(): Report {
  const r = exampleReport();
  const [reference, compensated] = r.strategies;
  reference!.resolved = ['reference', 'reference', 'reference'];
  reference!.roofline = roofline;
  compensated!.vsReference = { against: 'reference', ratio: 36.9 / 78.3, ratioCi95: [0.26, 1.27], verdict: 'no significant difference' };
  compensated!.agreementWithReference!.maxAbsDiff = 0.00000762939453125;
  r.dataset.positionStd = [3.5355339059327378];
  r.dataset.timeSpan = [0.0020000000000000018, 19.998000000000001];
  r.environment.calibration = {
    backend: 'wasm', device: 'CPU', matmulGflops: 23.48744974248976, expGelemsPerS: 0.38674900868042406, logGelemsPerS: 0.339268194512721,
    bandwidthGBps: 7.835073141040674, measuredAt: '2026-01-01T12:00:00.000Z', durationMs: 1323.0496449999996,
  };
  return r;
}

describe('report figures a person reads', () => {
  it('rounds to significant digits', () => {
    expect(fmtSig(3.5355339059327378)).toBe('3.54');
    expect(fmtSig(0.11743608991464993)).toBe('0.117');
    expect(fmtSig(1234.5)).toBe('1,230');
    expect(fmtSig(100)).toBe('100');
    expect(fmtSig(Number.NaN)).toBe('NaN');
    expect(fmtSi(16_673_307)).toBe('16.7 M');
    expect(fmtSi(999_960)).toBe('1 M');
    expect(fmtSi(512)).toBe('512');
  });

  it('prints no float noise anywhere in report.md', () => {
    const md = renderReportMarkdown(realisticReport());
    expect(md).toContain('| Position σ | 3.54 |');
    expect(md).toContain('| Time span (s) | 0.002 … 20 |');
    expect(md.match(/\.\d{10,}/g)).toBeNull();
  });

  it('prints a strategy that resolved to itself once', () => {
    const md = renderReportMarkdown(realisticReport());
    expect(md).not.toContain('reference → reference');
    expect(md).toContain('| reference | ok |');
    const auto = realisticReport();
    auto.strategies[1]!.resolved = ['compensated', 'series', 'compensated'];
    expect(renderReportMarkdown(auto)).toContain('| compensated → compensated, series | ok |');
  });

  it('gives one verdict per row: a ratio whose interval holds 1 is not called faster', () => {
    const md = renderReportMarkdown(realisticReport());
    const row = md.split('\n').find((l) => l.startsWith('| compensated | ok |'))!;
    expect(row).toContain('no significant difference');
    expect(row).not.toMatch(/faster|slower/);
    expect(row).toContain('| 2.12× |');
    // a significant verdict keeps its word
    expect(renderReportMarkdown(exampleReport())).toContain('| 2.12× (faster) | 0.47× (95 % CI 0.43–0.50): faster |');
  });

  it('has a roofline table with rounded figures and the ceiling named', () => {
    const md = renderReportMarkdown(realisticReport());
    const start = md.indexOf('## Roofline\n');
    expect(start).toBeGreaterThan(md.indexOf('## Kernels\n'));
    const section = md.slice(start, md.indexOf('\n## ', start + 3));
    expect(section).toContain('matmul 23.5 GFLOP/s, exp 0.387 G/s, log 0.339 G/s, memory bandwidth 7.84 GB/s');
    expect(section).toContain('| Stage | Calls | FLOPs | Bytes | Arithmetic intensity | Time | Achieved | Fraction of ceiling | Ceiling |');
    expect(section).toContain('| reduce | 24 | 14.5 M | 6.01 MiB | 2.3 FLOP/B | 92.6 ms | 0.156 GFLOP/s | 1.6 % | matmul peak |');
    expect(section).toContain('| **all modelled stages** |  | 16.7 M | 12.3 MiB | 1.29 FLOP/B | 142 ms | 0.117 GFLOP/s | 1.7 % | memory bandwidth |');
    expect(renderReportMarkdown(exampleReport())).not.toContain('## Roofline');
  });
});

describe('report.csv figures', () => {
  const csv = renderReportCsv(realisticReport());
  const rows = csv.trimEnd().split('\n').slice(1).map((l) => l.split(','));
  const col = (name: (typeof CSV_COLUMNS)[number]): number => CSV_COLUMNS.indexOf(name);

  it('rounds fractional figures and keeps whole ones whole', () => {
    expect(csv).not.toMatch(/\.\d{10,}/);
    const total = rows.find((r) => r[col('strategy')] === 'compensated' && r[col('phase')] === 'total')!;
    expect(total[col('speedupVsBaseline')]).toBe('2.122');
    expect(total[col('maxAbsDiffVsReference')]).toBe('0.000007629');
    expect(total[col('peakRssBytes')]).toBe('398458880');
  });

  it('has a roofline row per stage and one for all of them', () => {
    const roof = rows.filter((r) => r[col('phase')] === 'roofline');
    expect(roof.map((r) => [r[col('strategy')], r[col('rooflineStage')]])).toEqual([['reference', 'reduce'], ['reference', 'all']]);
    const reduce = roof[0]!;
    expect([reduce[col('rooflineCalls')], reduce[col('flops')], reduce[col('bytes')], reduce[col('arithmeticIntensity')]])
      .toEqual(['24', '14468400', '6302076', '2.296']);
    expect([reduce[col('rooflineTimeMs')], reduce[col('achievedGflops')], reduce[col('fractionOfPeak')], reduce[col('ceiling')]])
      .toEqual(['92.62', '0.1562', '0.01583', 'matmul']);
  });
});
