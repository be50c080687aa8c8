import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../shared/config';
import { summarizeDataset } from '../../shared/dataset';
import { makePreset, PRESET_INFO } from '../data';
import { validateReport } from '../export';
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
});
