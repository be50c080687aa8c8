import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { summarizeDataset } from '../../../shared/dataset';
import { makePreset, PRESET_INFO } from '../../data';
import { validateReport } from '../../export';
import { timingStats } from '../../analysis';
import type { StrategyResult } from '../../../shared/report';
import { buildReport } from './reportBuilder';

describe('buildReport', () => {
  it('says how the dataset compares with the presets, and the report still matches its schema', () => {
    const dataset = summarizeDataset(makePreset('small', { seed: 1 }));
    const small = PRESET_INFO.find((p) => p.name === 'small')!;
    const report = buildReport({
      runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
      config: parseRunConfig({ data: { kind: 'preset', name: 'small' }, strategies: ['reference'] }),
      outcome: {
        dataset,
        backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
        strategies: [], notApplicable: [], windows: [],
      },
    });
    expect(report.datasetScale).toMatch(new RegExp(`^${dataset.nEncodingSpikes.toLocaleString('en-US')} encoding spikes on ${small.nElectrodes} electrodes`));
    expect(report.datasetScale).toMatch(/of the '(tiny|small)' preset/);
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    expect(validateReport({ ...report, datasetScale: 42 }).ok).toBe(false);
  });

  it('puts each strategy against the reference with an interval, and the machine\'s load over the strategies', () => {
    const dataset = summarizeDataset(makePreset('tiny', { seed: 1 }));
    const result = (strategy: 'reference' | 'compensated', samples: number[], busy: boolean, otherCpuShare: number): StrategyResult => ({
      strategy, resolved: [strategy], status: 'ok', stages: [], kernels: [],
      total: timingStats(samples[0]! * 5, samples),
      load: { loadAverageStart: [busy ? 3 : 0.1, 0, 0], loadAverageEnd: [busy ? 3.4 : 0.4, 0, 0], otherCpuShare, busy },
    });
    const report = buildReport({
      runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
      config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference', 'compensated'] }),
      outcome: {
        dataset,
        backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
        strategies: [result('reference', [100, 102, 98, 101], false, 0.05), result('compensated', [50, 51, 49, 50], true, 0.45)],
        notApplicable: [],
        windows: [{ strategy: 'reference', startUs: 0, endUs: 3e6 }, { strategy: 'compensated', startUs: 3e6, endUs: 4e6 }],
      },
    });
    expect(report.strategies[0]!.vsReference).toBeUndefined();
    expect(report.strategies[1]!.vsReference).toMatchObject({ against: 'reference', verdict: 'faster' });
    expect(report.environment.load).toMatchObject({ loadAverageStart: [0.1, 0, 0], loadAverageEnd: [3.4, 0, 0], busy: true });
    expect(report.environment.load!.otherCpuShare).toBeCloseTo((0.05 * 3 + 0.45 * 1) / 4, 12);
    expect(report.findings.find((f) => f.id === 'machine-busy')?.message).toMatch(/^Timings are likely disturbed: load average 3\.40 on \d+ cores/);
    expect(report.recommendation?.runnerUp).toMatchObject({ strategy: 'reference', against: 'compensated', verdict: 'slower' });
    expect(report.strategies[1]!.total!.ci95).toBeDefined();
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
  });
});
