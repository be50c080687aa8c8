import { describe, expect, it } from 'vitest';
import { report, runEntry, strategyResult } from '../testing/sampleData';
import { electrodeRows, formatMetric, formatSpeedup, headlineText, medianPlusMinus, sortFindings, timingRows } from './resultTables';

describe('timingRows', () => {
  it('gives median ± std, cold first call and speedup against reference', () => {
    const rows = timingRows(report());
    expect(rows.map((r) => r.strategy)).toEqual(['reference', 'compensated']);
    expect(rows[0]).toMatchObject({ total: '100 ms ± 3 ms', coldMs: 200, speedup: 1, resolved: '' });
    expect(rows[1]!.speedup).toBe(2);
  });

  it('shows what auto resolved to, and failures without timings', () => {
    const r = report({
      strategies: [
        strategyResult('auto', 10, { resolved: ['compensated', 'streaming', 'compensated'] }),
        { strategy: 'chunked', resolved: ['chunked'], status: 'failed', error: { name: 'AppError', code: 'RUN_FAILED', message: 'out of memory' }, stages: [], kernels: [] },
      ],
    });
    const rows = timingRows(r);
    expect(rows[0]!.resolved).toBe('compensated, streaming');
    expect(rows[0]!.speedup).toBeNull();
    expect(rows[1]).toMatchObject({ ok: false, error: 'out of memory', total: '–', coldMs: null });
    expect(medianPlusMinus(undefined)).toBe('–');
  });
});

describe('electrodeRows', () => {
  it('reads "electrode N" stages per strategy with the dataset\'s names', () => {
    const { strategies, rows } = electrodeRows(report());
    expect(strategies).toEqual(['reference', 'compensated']);
    expect(rows).toEqual([
      { electrode: 'e0', totalMs: [60, 30] },
      { electrode: 'e1', totalMs: [40, 20] },
    ]);
    expect(electrodeRows(report({ strategies: [strategyResult('reference', 1, { stages: [] })] })).rows).toEqual([]);
  });
});

describe('small helpers', () => {
  it('sorts findings by severity, formats headlines and speedups', () => {
    expect(sortFindings([{ severity: 'info' }, { severity: 'error' }, { severity: 'warning' }]).map((f) => f.severity)).toEqual(['error', 'warning', 'info']);
    expect(headlineText(runEntry('r'))).toBe('reference 100 ms · compensated 50 ms');
    expect(headlineText(runEntry('r', { headline: [] }))).toBe('–');
    expect(formatSpeedup(2.345)).toBe('2.35×');
    expect(formatSpeedup(null)).toBe('–');
    expect(formatMetric('reference peak RSS bytes', 150 * 1024 * 1024)).toBe('150 MiB');
    expect(formatMetric('reference total median ms', 20.654)).toBe('20.7 ms');
    expect(formatMetric('argmax agreement', 0.98765)).toBe('0.9877');
    expect(formatMetric('x ms', null)).toBe('–');
  });
});
