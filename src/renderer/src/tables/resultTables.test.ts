import { describe, expect, it } from 'vitest';
import { datasetSummary, report, runEntry, strategyResult, timing } from '../testing/sampleData';
import {
  electrodeCallout, electrodeRows, formatMetric, formatSpeedup, headlineCell, headlineText, medianPlusMinus, rowIntervalText, rowVerdictText, runnerUpText, sortFindings,
  timingCallout, timingRows, timingSortValue, verdictText,
} from './resultTables';
import { sortRows } from './tableSort';

describe('timingRows', () => {
  it('gives median ± std, cold first call and speedup against reference', () => {
    const rows = timingRows(report());
    expect(rows.map((r) => r.strategy)).toEqual(['reference', 'compensated']);
    expect(rows[0]).toMatchObject({ total: '100 ms ± 3 ms', coldMs: 200, speedup: 1, resolved: '' });
    expect(rows[1]!.speedup).toBe(2);
  });

  it("says what auto's probe timed before it committed, and nothing where no probe ran", () => {
    const autoProbe = {
      electrode: 'tet06', spikes: 200, rows: 41, faster: 'series' as const, probeMs: 812,
      candidates: [{ strategy: 'compensated' as const, ms: 155 }, { strategy: 'series' as const, ms: 37 }],
      summary: "series 37.0 ms, compensated 155 ms on tet06's first 200 decoding spikes",
    };
    const rows = timingRows(report({ strategies: [strategyResult('auto', 10, { resolved: ['series'], autoProbe }), strategyResult('compensated', 20)] }));
    expect(rows[0]!.probe).toBe("auto's probe: series 37.0 ms, compensated 155 ms on tet06's first 200 decoding spikes (812 ms); it follows series where series' bound holds");
    expect(rows[1]!.probe).toBe('');
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
    // one call, no repeats (a decode): its time, no spread
    expect(medianPlusMinus({ firstMs: 5160, samplesMs: [], medianMs: 5160, meanMs: 5160, stdMs: 0, minMs: 5160, maxMs: 5160, n: 0 })).toBe('5.16 s');
  });
});

describe('intervals and verdicts', () => {
  it('shows each median with its interval and each strategy\'s verdict against reference', () => {
    const r = report({
      strategies: [
        strategyResult('reference', 100, { total: { ...timing(200, 100), ci95: [97, 104] } }),
        strategyResult('compensated', 50, {
          total: { ...timing(90, 50), ci95: [48.5, 51.2] },
          vsReference: { against: 'reference', ratio: 0.5, ratioCi95: [0.47, 0.53], verdict: 'faster' },
        }),
        strategyResult('streaming', 99, { vsReference: { against: 'reference', ratio: 0.99, ratioCi95: [0.9, 1.08], verdict: 'no significant difference' } }),
      ],
    });
    const rows = timingRows(r);
    expect(rows.map((x) => x.total)).toEqual(['100 ms ±3.5 %', '50 ms ±2.7 %', '99 ms ± 3 ms']);
    expect(rows.map((x) => x.verdict)).toEqual(['reference', '0.50× [0.47, 0.53] faster', '0.99× [0.90, 1.08] no significant difference']);
    expect(timingSortValue(rows[1]!, 'verdict')).toBe(0.5);
    expect(rows[1]!.intervals.total).toBe('95 % interval of the median: 48.5 ms – 51.2 ms');
    // the sentence above the table does not call a difference within noise "faster"
    const close = report({ strategies: [strategyResult('reference', 100), strategyResult('streaming', 99, { vsReference: r.strategies[2]!.vsReference })] });
    expect(timingCallout(timingRows(close))).toBe('Fastest warm total: streaming (99 ms, no significant difference from reference). Slowest: reference (100 ms).');
    expect(verdictText(undefined)).toBe('–');
    expect(runnerUpText({ against: 'compensated', ratio: 1.05, ratioCi95: [0.97, 1.16], verdict: 'no significant difference' }))
      .toBe('takes 1.05× [0.97, 1.16] the time of compensated: no significant difference');
  });

  it('says "within noise" for a comparison row whose interval holds 1, and "regression" for a flagged one', () => {
    const row = { metric: 'reference total median ms', a: 100, b: 115, deltaPct: 15, regression: false, ratioCi95: [0.93, 1.31] as [number, number], withinNoise: true };
    expect(rowVerdictText(row)).toBe('within noise');
    expect(rowIntervalText(row)).toBe('[0.93, 1.31]');
    expect(rowVerdictText({ ...row, regression: true, withinNoise: false, ratioCi95: [1.9, 2.1] })).toBe('regression');
    expect(rowVerdictText({ metric: 'peak tensor bytes', a: 1, b: 1, deltaPct: 0, regression: false })).toBe('');
    expect(rowIntervalText({ metric: 'total first ms', a: 1, b: 2, deltaPct: 100, regression: false })).toBe('');
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

describe('sorting and calling out', () => {
  it('sorts timing rows by the warm medians, failed strategies last', () => {
    const r = report({
      strategies: [
        strategyResult('reference', 100),
        { strategy: 'chunked', resolved: ['chunked'], status: 'failed', error: { name: 'AppError', code: 'RUN_FAILED', message: 'oom' }, stages: [], kernels: [] },
        strategyResult('compensated', 50),
        strategyResult('streaming', 70),
      ],
    });
    const rows = timingRows(r);
    expect(rows[0]).toMatchObject({ encodeMedianMs: 25, decodeMedianMs: 75, totalMedianMs: 100 });
    const by = (column: Parameters<typeof timingSortValue>[1], direction: 'ascending' | 'descending') =>
      sortRows(rows, (row) => timingSortValue(row, column), direction).map((row) => row.strategy);
    expect(by('total', 'descending')).toEqual(['reference', 'streaming', 'compensated', 'chunked']);
    expect(by('total', 'ascending')).toEqual(['compensated', 'streaming', 'reference', 'chunked']);
    expect(by('speedup', 'descending')).toEqual(['compensated', 'streaming', 'reference', 'chunked']);
    expect(by('strategy', 'ascending')).toEqual(['chunked', 'compensated', 'reference', 'streaming']);
  });

  it('names the fastest strategy with its speedup and the slowest ones', () => {
    const r = report({ strategies: [strategyResult('reference', 100), strategyResult('compensated', 50), strategyResult('streaming', 70)] });
    expect(timingCallout(timingRows(r))).toBe('Fastest warm total: compensated (50 ms, 2.00× faster than reference). Slowest: reference (100 ms) and streaming (70 ms).');
    // first calls alone (a run stopped before its repeats) are not called warm
    expect(timingCallout(timingRows(r), undefined, false)).toMatch(/^Fastest first-call total: compensated/);
    expect(timingCallout(timingRows(report({ strategies: [strategyResult('reference', 100)] })))).toBe('');
  });

  it('names the three slowest electrodes of a 64-electrode run and their share', () => {
    const byElectrode = Array.from({ length: 64 }, (_, i) => ({ electrode: i, calls: 1, totalMs: i === 40 ? 90 : i === 7 ? 80 : i === 63 ? 70 : 10 }));
    const stages = [{ name: 'electrode', calls: 64, totalMs: 850, selfMs: 64, byElectrode }];
    const electrodes = Array.from({ length: 64 }, (_, i) => ({ name: `t${i}`, nFeatures: 4, nEncodingSpikes: 10, nDecodingSpikes: 5 }));
    const r = report({
      dataset: datasetSummary({ nElectrodes: 64, electrodes }),
      strategies: [strategyResult('reference', 1, { stages }), strategyResult('compensated', 1, { stages: [{ ...stages[0]!, byElectrode: byElectrode.map((b) => ({ ...b, totalMs: b.totalMs / 2 })) }] })],
    });
    const table = electrodeRows(r);
    expect(table.rows).toHaveLength(64);
    // 240 of 240 + 61 × 10 = 850 ms
    expect(electrodeCallout(table, 0)).toBe('Slowest electrodes under reference: t40 (90 ms), t7 (80 ms) and t63 (70 ms), together 28.2 % of its time on electrodes.');
    expect(electrodeCallout(table, 1)).toMatch(/^Slowest electrodes under compensated: t40 \(45 ms\)/);
    expect(electrodeCallout(table, 5)).toBe('');
  });

  it('singles out one electrode of two, and none of one', () => {
    expect(electrodeCallout(electrodeRows(report()), 0)).toBe('Slowest electrode under reference: e0 (60 ms), 60.0 % of its time on electrodes.');
    const one = report({ strategies: [strategyResult('reference', 10, { stages: [{ name: 'electrode', calls: 1, totalMs: 5, selfMs: 5, byElectrode: [{ electrode: 0, calls: 1, totalMs: 5 }] }] })] });
    expect(electrodeCallout(electrodeRows(one), 0)).toBe('');
  });

  it('reads the numbered electrode stages of reports saved before the names were stable', () => {
    const stages = [{ name: 'electrode 1', calls: 2, totalMs: 30, selfMs: 3 }, { name: 'electrode 0', calls: 2, totalMs: 10, selfMs: 1 }];
    expect(electrodeRows(report({ strategies: [strategyResult('reference', 10, { stages })] })).rows).toEqual([
      { electrode: 'e0', totalMs: [10] }, { electrode: 'e1', totalMs: [30] },
    ]);
  });
});

describe('small helpers', () => {
  it('sorts findings by severity, formats headlines and speedups', () => {
    expect(sortFindings([{ severity: 'info' }, { severity: 'error' }, { severity: 'warning' }]).map((f) => f.severity)).toEqual(['error', 'warning', 'info']);
    expect(headlineText(runEntry('r'))).toBe('reference 100 ms · compensated 50 ms');
    expect(headlineText(runEntry('r', { headline: [] }))).toBe('–');
    expect(headlineCell(runEntry('r'))).toEqual({ times: 'reference 100 ms · compensated 50 ms' });
    const first = runEntry('r', { headline: [{ strategy: 'reference', totalMedianMs: 25.6, firstCallOnly: true }] });
    expect(headlineCell(first)).toEqual({ times: 'reference 25.6 ms', note: 'first call only' });
    // one warm, one first call: each marked where it stands
    const mixed = runEntry('r', { headline: [{ strategy: 'reference', totalMedianMs: 20 }, { strategy: 'series', totalMedianMs: 9, firstCallOnly: true }] });
    expect(headlineCell(mixed)).toEqual({ times: 'reference 20 ms · series 9 ms (first call)' });
    expect(formatSpeedup(2.345)).toBe('2.35×');
    expect(formatSpeedup(null)).toBe('–');
    expect(formatMetric('reference peak RSS bytes', 150 * 1024 * 1024)).toBe('150 MiB');
    expect(formatMetric('reference total median ms', 20.654)).toBe('20.7 ms');
    expect(formatMetric('argmax agreement', 0.98765)).toBe('0.9877');
    expect(formatMetric('x ms', null)).toBe('–');
  });
});
