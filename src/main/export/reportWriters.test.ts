import { describe, it, expect } from 'vitest';
import { exampleReport, exampleReportWithEngines } from './exampleReport.testdata';
import { CSV_COLUMNS, renderReportCsv } from './reportCsv';
import { renderReportMarkdown } from './reportMarkdown';
import { validateReport } from './reportJson';

describe('renderReportMarkdown', () => {
  const md = renderReportMarkdown(exampleReport());
  const section = (title: string): string => {
    const start = md.indexOf(`## ${title}\n`);
    expect(start).toBeGreaterThanOrEqual(0);
    const next = md.indexOf('\n## ', start + 3);
    return md.slice(start, next < 0 ? undefined : next);
  };

  it('has every section in order', () => {
    const titles = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(titles).toEqual([
      'Dataset', 'Timings', 'Numerical agreement', 'Memory', 'Stages', 'Kernels', 'Numerical health', 'Findings',
      'Recommendation', 'Not applicable here',
    ]);
  });

  it("adds the GPU's dispatches, compilations and readback per stage where the stages carry them, and not elsewhere", () => {
    expect(section('Stages')).not.toContain('GPU dispatches');
    const report = exampleReport();
    const [first, ...rest] = report.strategies;
    const withGpu = { ...first!, stages: first!.stages.map((st, i) => (i === 0 ? { ...st, gpu: { dispatches: 1200, pipelines: 2, readBytes: 4096 } } : st)) };
    const md2 = renderReportMarkdown({ ...report, strategies: [withGpu, ...rest] });
    const stages = md2.slice(md2.indexOf('## Stages'), md2.indexOf('## Kernels'));
    expect(stages).toContain('| Stage | Calls | Total | Self | GPU dispatches | Pipelines compiled | Read back |');
    expect(stages).toContain('| 1,200 | 2 | 4.00 KiB |');
    expect(stages).toContain('| — | — | — |');
  });

  it('shows the dataset sizes', () => {
    const s = section('Dataset');
    expect(s).toContain('| Electrodes | 16 |');
    expect(s).toContain('| Encoding spikes | 3,200 |');
    expect(s).toContain('| Position bins | 500 |');
  });

  it('says how the dataset compares with the presets when the report knows, and nothing when it does not', () => {
    const sentence = "3,200 encoding spikes on 16 electrodes and 500 bins: 1.0× the encoding spikes of the 'small' preset";
    const scaled = renderReportMarkdown({ ...exampleReport(), datasetScale: sentence });
    const dataset = scaled.slice(scaled.indexOf('## Dataset'), scaled.indexOf('## Timings'));
    expect(dataset).toContain(`Compared with the presets: ${sentence}.`);
    expect(md).not.toContain('Compared with the presets');
  });

  it('shows warm medians with their intervals, the speedup and the verdict against reference, and cold first calls', () => {
    const s = section('Timings');
    expect(s).toContain('| reference | ok | 17.1 ms ± 0.66 ms | 61.2 ms ± 1.5 ms | 78.3 ms ± 2.2 ms | 77.3 ms – 82.3 ms | 3 | 1.00× (baseline) | — |');
    // 78.3 / 36.9 = 2.12; the ratio the other way with its interval, which excludes 1
    expect(s).toContain('36.9 ms ± 1.3 ms | 35.8 ms – 38.9 ms | 3 (precision) | 2.12× (faster) | 0.47× (95 % CI 0.43–0.50): faster |');
    expect(s).toContain('failed: chunked: out of memory at electrode e3');
    // compensated decode: cold 2950 ms over warm median 20.4 ms
    expect(s).toContain('| compensated | decode | 2.95 s | 20.4 ms | 20.7 ms ± 0.88 ms | 19.8 ms | 21.9 ms | 3 | 145× | 19.8 ms – 21.9 ms | none |');
    expect(s).toContain('| 121 ms | 3.2 ms ± 0.12 ms | 3.1 ms – 3.4 ms | 3.1 ms | 3.4 ms | 3 |');
  });

  it('states the machine load and the runner-up with its verdict', () => {
    expect(md).toContain('- **Machine load while measuring**: load average 0.52 → 1.10 (1 min), other processes 3.2 % of the CPU time: quiet');
    // an engine at normal priority is not worth a line; one below it is
    expect(md).not.toContain('Engine priority');
    const base = exampleReport();
    const niced = renderReportMarkdown({ ...base, environment: { ...base.environment, engineNiceness: 10 } });
    expect(niced).toContain('- **Engine priority**: nice 10 (below normal)');
    // a command line run under `nice -n -5` (or Windows' above-normal class) is above it
    expect(renderReportMarkdown({ ...base, environment: { ...base.environment, engineNiceness: -5 } })).toContain('- **Engine priority**: nice -5 (above normal)');
    expect(section('Recommendation')).toContain('Runner-up: `reference` against `compensated`, 2.12× (95 % CI 1.99–2.30) the time: slower.');
  });

  it('shows agreement with reference and expected, and the matrix', () => {
    const s = section('Numerical agreement');
    expect(s).toContain('| compensated | reference | 1.53e-5 | 4.20e-7 | ✅ | 99.8 % |');
    expect(s).toContain('| reference | — | 1.53e-5 ✅ |');
  });

  it('puts the memory estimate next to the measured peak, and flags the leak', () => {
    const s = section('Memory');
    expect(s).toContain('| reference | 8.00 MiB | 9.00 MiB | 1.13× | 393 MiB | 59.0 MiB | — |');
    expect(s).toContain('| compensated | 12 | 18 | 2, 2, 2 | ❌ leaked |');
  });

  it('lists kernels with their share of kernel time', () => {
    expect(section('Kernels')).toContain('| BatchMatMul | 96 | 31.3 ms | 64.4 % | 326 µs | 12.0 MiB |');
  });

  it('lists unhealthy electrodes only', () => {
    const s = section('Numerical health');
    expect(s).toContain('| reference | e7 | 3 | 2 | 4 | 75.0 % | yes |');
    expect(s).not.toContain('| e0 |');
  });

  it('orders findings by severity and states the recommendation', () => {
    const s = section('Findings');
    expect(s.indexOf('**ERROR** `too-few-spikes`')).toBeLessThan(s.indexOf('**WARNING** `tensor-leak`'));
    expect(s.indexOf('**WARNING**')).toBeLessThan(s.indexOf('info `cold-start`'));
    expect(section('Recommendation')).toContain('**Use `compensated` with block size 100** on wasm');
    expect(section('Not applicable here')).toContain('- JIT compilation cache');
  });

  it('prints NaN and missing values as words', () => {
    const r = exampleReport();
    r.strategies[1]!.agreementWithReference!.maxAbsDiff = Number.NaN;
    r.strategies[0]!.health!.floorShare = null as unknown as number;
    const text = renderReportMarkdown(r);
    expect(text).toContain('| compensated | reference | NaN |');
    expect(text).toContain('| reference | 0 | 0 | 0 | n/a |');
  });

  it('escapes pipes inside table cells', () => {
    const r = exampleReport();
    r.strategies[2]!.error!.message = 'a | b';
    expect(renderReportMarkdown(r)).toContain('failed: a \\| b');
  });

  it("says why a dispatch chose each electrode's strategy", () => {
    const r = exampleReport();
    r.strategies.push({ ...r.strategies[1]!, strategy: 'auto', resolved: ['series'], resolvedReasons: ['series 2 ms vs compensated 30 ms predicted on wasm'] });
    const text = renderReportMarkdown(r);
    expect(text).toContain('### Why `auto` chose what it ran');
    expect(text).toContain('- e0: series (series 2 ms vs compensated 30 ms predicted on wasm)');
  });

  it("says what auto's probe measured before it committed, and the report with it passes the schema", () => {
    const r = exampleReport();
    const autoProbe = {
      electrode: 'e0', spikes: 200, rows: 41, faster: 'series' as const, probeMs: 812,
      candidates: [{ strategy: 'compensated' as const, ms: 155 }, { strategy: 'series' as const, ms: 37 }],
      summary: "series 37.0 ms, compensated 155 ms on e0's first 200 decoding spikes",
    };
    r.strategies.push({ ...r.strategies[1]!, strategy: 'auto', resolved: ['series'], autoProbe });
    const text = renderReportMarkdown(r);
    expect(text).toContain('### Why `auto` chose what it ran');
    expect(text).toContain("auto's probe: series 37.0 ms, compensated 155 ms on e0's first 200 decoding spikes (812 ms); it follows series where series' bound holds.");
    expect(validateReport(r)).toEqual({ ok: true, errors: [] });
    const bad = validateReport({ ...r, strategies: [{ ...r.strategies.at(-1)!, autoProbe: { ...autoProbe, faster: 'numpy' } }] });
    expect(bad.errors).toEqual([expect.stringMatching(/autoProbe\/faster: must be equal to one of the allowed values/)]);
  });
});

describe('renderReportMarkdown with external engines', () => {
  const md = renderReportMarkdown(exampleReportWithEngines());
  const section = (title: string): string => md.slice(md.indexOf(`## ${title}\n`), md.indexOf('\n## ', md.indexOf(`## ${title}\n`) + 3));

  it('adds an External engines section after accuracy and before memory, and none for a run without engines', () => {
    const titles = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(titles.indexOf('External engines')).toBe(titles.indexOf('Memory') - 1);
    expect(renderReportMarkdown(exampleReport())).not.toContain('External engines');
    expect(md).toContain('- **External engines**: numpy, nld:clusterless_kde:x64');
  });

  it('lists each engine with what it said it is, its exit, peak RSS, counters and command', () => {
    const s = section('External engines');
    expect(s).toContain(
      "| numpy | likelihood | numpy | 2.1.3 | cpu | float32 | 0 | 150 MiB | xla compilations 0 | `python3 '/opt/kde profiler/resources/engines/numpy_engine.py'` |",
    );
    expect(s).toContain("| nld:clusterless_kde:x64 | likelihood | — | — | — | — | 3 | — | — | `python3 '/opt/kde profiler/resources/engines/nld_engine.py' --variant clusterless_kde --x64` |");
    expect(s).toContain("- `nld:clusterless_kde:x64`: not available on this machine: No module named 'jax'");
    expect(s).toContain('- `numpy`: blas openblas, threads 2');
  });

  it('times an engine beside the strategies, and says an unavailable one is not available rather than failed', () => {
    const s = section('Timings');
    expect(s).toContain('| numpy | ok | 20.2 ms ± 0.46 ms | 88.1 ms ± 1.2 ms | 108 ms ± 1.7 ms | 107 ms – 111 ms | 3 | 0.72× (1.38× slower) |');
    expect(s).toContain("| nld:clusterless_kde:x64 | not available on this machine: No module named 'jax' |");
    expect(section('Numerical agreement')).toContain('| numpy | reference | 2.20e-5 |');
    expect(section('Memory')).not.toContain('| numpy |');
  });
});

describe('renderReportCsv', () => {
  const csv = renderReportCsv(exampleReport());
  const lines = csv.trimEnd().split('\n');
  const rows = lines.slice(1).map((l) => l.split(','));
  const col = (name: (typeof CSV_COLUMNS)[number]): number => CSV_COLUMNS.indexOf(name);
  const rowOf = (strategy: string, phase: string): string[] => rows.find((r) => r[col('strategy')] === strategy && r[col('phase')] === phase)!;

  it('has a stable header and one row per strategy × phase', () => {
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(rows).toHaveLength(3 * 3 + 1);
    for (const r of rows) expect(r).toHaveLength(CSV_COLUMNS.length);
  });

  it('carries plain numbers, rounded', () => {
    const total = rowOf('compensated', 'total');
    expect(total[col('medianMs')]).toBe('36.9');
    expect(total[col('firstMs')]).toBe('3740');
    expect(Number(total[col('speedupVsBaseline')])).toBeCloseTo(78.3 / 36.9, 3);
    expect(total[col('leaked')]).toBe('true');
    expect(rowOf('reference', 'decode')[col('n')]).toBe('3');
    expect(rowOf('chunked', 'total')[col('status')]).toBe('failed');
    expect(rowOf('chunked', 'total')[col('medianMs')]).toBe('');
    expect(rowOf('local', 'local')[col('medianMs')]).toBe('3.2');
  });

  it('carries each median\'s interval and the total\'s verdict against reference', () => {
    const total = rowOf('compensated', 'total');
    expect([total[col('medianCi95LowMs')], total[col('medianCi95HighMs')], total[col('stoppedBy')]]).toEqual(['35.8', '38.9', 'precision']);
    expect([total[col('ratioVsReferenceCi95Low')], total[col('ratioVsReferenceCi95High')], total[col('verdictVsReference')]]).toEqual(['0.435', '0.503', 'faster']);
    expect(rowOf('compensated', 'decode')[col('verdictVsReference')]).toBe('');
    expect(rowOf('reference', 'total')[col('outlierCount')]).toBe('0');
  });

  it('appends the external engine columns, empty on the strategies\' rows and filled on an engine\'s', () => {
    expect(CSV_COLUMNS.slice(-5)).toEqual(['externalEngine', 'externalVersion', 'externalDevice', 'externalDtype', 'externalPeakRssBytes']);
    expect(CSV_COLUMNS.indexOf('ceiling')).toBe(CSV_COLUMNS.length - 6);
    expect(rowOf('reference', 'total').slice(-5)).toEqual(['', '', '', '', '']);
    const withEngines = renderReportCsv(exampleReportWithEngines()).trimEnd().split('\n').slice(1).map((l) => l.split(','));
    expect(withEngines).toHaveLength(5 * 3 + 1);
    const numpyTotal = withEngines.find((r) => r[col('strategy')] === 'numpy' && r[col('phase')] === 'total')!;
    expect(numpyTotal.slice(-5)).toEqual(['numpy', '2.1.3', 'cpu', 'float32', '157286400']);
    expect(numpyTotal[col('medianMs')]).toBe('108.3');
    expect(numpyTotal[col('peakRssBytes')]).toBe('');
    const nld = withEngines.find((r) => r[col('strategy')] === 'nld:clusterless_kde:x64' && r[col('phase')] === 'total')!;
    expect([nld[col('status')], ...nld.slice(-5)]).toEqual(['failed', '', '', '', '', '']);
  });

  it('quotes values with commas or quotes', () => {
    const r = exampleReport();
    r.backend.device = 'GPU "big", fast';
    expect(renderReportCsv(r)).toContain('"GPU ""big"", fast"');
  });
});
