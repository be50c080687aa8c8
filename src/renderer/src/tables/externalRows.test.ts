import { describe, expect, it } from 'vitest';
import type { StrategyResult } from '../../../shared/report';
import { report, strategyResult } from '../testing/sampleData';
import { externalEngineRows, externalMark, externalResults, failureCell } from './externalRows';
import { timingRows } from './resultTables';

const numpy = (): StrategyResult =>
  strategyResult('numpy', 80, {
    memory: undefined,
    kernels: [],
    external: {
      engine: 'numpy', version: '2.1.3', device: 'cpu', dtype: 'float32', info: { blas: 'openblas', threads: 4 },
      command: ['python3', '/opt/kde profiler/numpy_engine.py'], exitCode: 0, counters: { 'xla compilations': 0 }, peakRssBytes: 300 * 1024 * 1024,
    },
  });

const missingNld = (): StrategyResult => ({
  strategy: 'nld:clusterless_kde:x64', resolved: [], status: 'failed', stages: [], kernels: [],
  error: { name: 'AppError', code: 'RUN_FAILED', message: 'cannot run on this machine: No module named jax' },
  external: { engine: '', version: '', device: '', dtype: '', info: {}, command: ['python3', 'nld_engine.py'], exitCode: 3, unavailable: 'No module named jax' },
});

const withEngines = () => report({ strategies: [strategyResult('reference', 100), numpy(), missingNld()] });

describe('external engine rows', () => {
  it('keeps the external rows only, each with its facts in words', () => {
    const r = withEngines();
    expect(externalResults(r).map((s) => s.strategy)).toEqual(['numpy', 'nld:clusterless_kde:x64']);
    const [np, nld] = externalEngineRows(r);
    expect(np).toEqual({
      name: 'numpy', engine: 'numpy', computes: 'likelihood', agreement: '–', version: '2.1.3', device: 'cpu', dtype: 'float32', ok: true, exit: '0', peakRss: '300 MiB',
      counters: 'xla compilations 0', command: "python3 '/opt/kde profiler/numpy_engine.py'", info: 'blas: openblas\nthreads: 4',
    });
    expect(nld).toMatchObject({ name: 'nld:clusterless_kde:x64', engine: '–', version: '–', ok: false, exit: '3', peakRss: '–', counters: '–', unavailable: 'No module named jax' });
    expect(externalEngineRows(report())).toEqual([]);
  });

  it('marks an external row in the timing table and says an engine is not available here apart from a failure', () => {
    const rows = timingRows(withEngines());
    expect(rows.map((r) => r.external)).toEqual(['', 'external · 2.1.3 · cpu · float32', 'external']);
    const whole = { external: { engine: 'nld:decoder', version: '', device: 'cpu', dtype: 'float32', info: {}, command: ['python3'], exitCode: 0, posterior: { model: 'decoder' as const, file: 'p.npy' } } };
    expect(externalMark(whole)).toBe('external · whole decoder · cpu · float32');
    expect(rows[1]).toMatchObject({ ok: true, resolved: '', failure: '', speedup: 100 / 80 });
    expect(rows[2]).toMatchObject({ ok: false, failure: 'not available on this machine: No module named jax' });
    const crashed = { ...missingNld(), external: { ...missingNld().external!, unavailable: undefined, exitCode: null, signal: 'SIGKILL' } };
    expect(failureCell({ ...crashed, error: { name: 'AppError', code: 'RUN_FAILED', message: 'was killed by SIGKILL' } })).toBe('failed: was killed by SIGKILL');
    expect(externalMark(strategyResult('reference', 1))).toBe('');
  });
});
