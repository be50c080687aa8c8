import { describe, expect, it } from 'vitest';
import { parseRunConfig, POSTERIOR_METHODS, POSTERIOR_MODELS } from '../../../shared/config';
import { summarizeDataset } from '../../../shared/dataset';
import { makePreset, PRESET_INFO } from '../../data';
import { renderReportCsv, renderReportMarkdown, validateReport } from '../../export';
import { timingStats } from '../../analysis';
import { estimateDatasetPeak } from '../../engine/model';
import { posteriorStageEstimate } from '../../engine/posterior';
import { formatBytes } from '../../../shared/format';
import type { PosteriorReport, StrategyResult } from '../../../shared/report';
import reportSchema from '../../../../resources/report.schema.json';
import { buildReport, type ReportInput } from './reportBuilder';

/** A completed report of a tiny preset run of reference and compensated, from these rows and windows. */
function referenceAndCompensated(
  strategies: StrategyResult[], windows: ReportInput['outcome']['windows'], peakRssBetween?: ReportInput['peakRssBetween'],
) {
  return buildReport({
    runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
    config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference', 'compensated'] }),
    outcome: {
      dataset: summarizeDataset(makePreset('tiny', { seed: 1 })),
      backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
      strategies,
      notApplicable: [],
      windows,
    },
    ...(peakRssBetween ? { peakRssBetween } : {}),
  });
}

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
    const result = (strategy: 'reference' | 'compensated', samples: number[], busy: boolean, otherCpuShare: number): StrategyResult => ({
      strategy, resolved: [strategy], status: 'ok', stages: [], kernels: [],
      total: timingStats(samples[0]! * 5, samples),
      load: { loadAverageStart: [busy ? 3 : 0.1, 0, 0], loadAverageEnd: [busy ? 3.4 : 0.4, 0, 0], otherCpuShare, busy },
    });
    const report = referenceAndCompensated(
      [result('reference', [100, 102, 98, 101], false, 0.05), result('compensated', [50, 51, 49, 50], true, 0.45)],
      [{ strategy: 'reference', startUs: 0, endUs: 3e6 }, { strategy: 'compensated', startUs: 3e6, endUs: 4e6 }],
    );
    expect(report.strategies[0]!.vsReference).toBeUndefined();
    expect(report.strategies[1]!.vsReference).toMatchObject({ against: 'reference', verdict: 'faster' });
    expect(report.environment.load).toMatchObject({ loadAverageStart: [0.1, 0, 0], loadAverageEnd: [3.4, 0, 0], busy: true });
    expect(report.environment.load!.otherCpuShare).toBeCloseTo((0.05 * 3 + 0.45 * 1) / 4, 12);
    expect(report.findings.find((f) => f.id === 'machine-busy')?.message).toMatch(/^Timings are likely disturbed: load average 3\.40 on \d+ cores/);
    expect(report.recommendation?.runnerUp).toMatchObject({ strategy: 'reference', against: 'compensated', verdict: 'slower' });
    expect(report.strategies[1]!.total!.ci95).toBeDefined();
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
  });

  it('reads a strategy\'s peak RSS and load weight over all its windows, its repeats interleaved with another\'s', () => {
    const result = (strategy: 'reference' | 'compensated', otherCpuShare: number): StrategyResult => ({
      strategy, resolved: [strategy], status: 'ok', stages: [], kernels: [], total: timingStats(500, [100, 100]),
      memory: { estimatedPeakBytes: 1, measuredPeakTensorBytes: 1 },
      load: { loadAverageStart: [0.1, 0, 0], loadAverageEnd: [0.1, 0, 0], otherCpuShare, busy: false },
    });
    // reference: 0–1 s and 2–3 s; compensated 1–2 s and 3–6 s; the RSS peaks in compensated's second window
    const windows = [[0, 1], [1, 2], [2, 3], [3, 6]].map(([a, b], i) => ({ strategy: i % 2 === 0 ? 'reference' : 'compensated', startUs: a! * 1e6, endUs: b! * 1e6 }));
    const rss = [[0.5e6, 100], [1.5e6, 200], [2.5e6, 300], [4e6, 900]];
    const report = referenceAndCompensated(
      [result('reference', 0.1), result('compensated', 0.5)], windows,
      (a, b) => Math.max(...rss.filter(([t]) => t! >= a && t! <= b).map(([, v]) => v!)),
    );
    expect(report.strategies.map((s) => s.memory?.peakRssBytes)).toEqual([300, 900]);
    // weighted by 2 s of reference and 4 s of compensated
    expect(report.environment.load!.otherCpuShare).toBeCloseTo((0.1 * 2 + 0.5 * 4) / 6, 12);
  });

  it('carries a decode\'s posterior into report.json, a Posterior section of report.md and rows of report.csv', () => {
    const dataset = summarizeDataset(makePreset('tiny', { seed: 1 }));
    const posterior: PosteriorReport = {
      model: 'detector', method: 'structured', states: ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'],
      rows: 1200, nStateBins: 124, nInteriorStateBins: 122, marginalLogLikelihood: -4321.98765, filterMs: 250, smoothMs: 1500,
      denseTransitionBytes: 122 * 122 * 4,
      files: {
        acausal: 'posterior/acausal_posterior.npy', causal: 'posterior/causal_posterior.npy',
        stateProbabilities: 'posterior/acausal_state_probabilities.npy', mapPosition: 'posterior/map_position.npy',
      },
      accuracy: {
        likelihood: { rows: 1100, medianAbsError: 12.5, shareWithin10: 0.41, units: 'cm' },
        posterior: { rows: 1100, medianAbsError: 4.25, shareWithin10: 0.83, units: 'cm' },
      },
    };
    const report = buildReport({
      runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
      config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'] }),
      outcome: {
        dataset,
        backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
        strategies: [], notApplicable: [], windows: [], posterior,
      },
    });
    expect(report.posterior).toEqual(posterior);
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    // NaN travels as null, as the schema allows of every measure
    expect(validateReport({ ...report, posterior: { ...posterior, marginalLogLikelihood: Number.NaN } }).ok).toBe(true);
    expect(validateReport({ ...report, posterior: { ...posterior, model: 'hmm' } }).errors).toEqual(['/posterior/model: must be equal to one of the allowed values (decoder, detector)']);
    expect(validateReport({ ...report, posterior: { ...posterior, states: [] } }).ok).toBe(false);

    const md = renderReportMarkdown(report);
    const section = md.slice(md.indexOf('## Posterior\n'), md.indexOf('\n## Findings'));
    expect(section).toContain('| Model | detector |');
    expect(section).toContain('| Posterior method | structured |');
    expect(section).toContain('| States | Local, No-Spike, Non-Local Continuous, Non-Local Fragmented |');
    expect(section).toContain('| State bins | 122 inside the track, of 124 |');
    expect(section).toContain('| Log marginal likelihood | -4321.988 |');
    expect(section).toContain('| Filter | 250 ms |');
    expect(section).toContain('| Smoother | 1.50 s |');
    expect(section).toContain('| Posterior MAP | 1,100 | 4.25 cm | 83.0 % |');
    expect(section).toContain('| Likelihood argmax | 1,100 | 12.5 cm | 41.0 % |');
    expect(section).toContain('- `posterior/map_position.npy`: MAP position of each row');
    expect(renderReportMarkdown({ ...report, posterior: { ...posterior, accuracy: undefined } })).toContain('The data carry no true position');
    expect(renderReportMarkdown({ ...report, posterior: undefined })).not.toContain('## Posterior');

    const csv = renderReportCsv(report).trimEnd().split('\n');
    expect(csv.filter((l) => l.includes(',posterior,detector structured,ok,'))).toHaveLength(2);
  });

  it("says in a decode's recommendation what its posterior stage holds besides the likelihood's estimated peak", () => {
    const data = makePreset('tiny', { seed: 1 });
    const dataset = summarizeDataset(data);
    const peak = estimateDatasetPeak('compensated', dataset, { blockSize: dataset.blockSize }).deviceBytes;
    const stage = posteriorStageEstimate({ model: 'decoder', method: 'structured', rowsPerWindow: 2000 }, data.placeGrid!, data.time.length);
    const strategy: StrategyResult = {
      strategy: 'compensated', resolved: ['compensated'], status: 'ok', stages: [], kernels: [], total: timingStats(40, []),
      memory: { estimatedPeakBytes: peak, measuredPeakTensorBytes: peak },
    };
    const posterior = {
      model: 'decoder', method: 'structured', states: ['Continuous'], rows: data.time.length, nStateBins: 100, nInteriorStateBins: 100,
      marginalLogLikelihood: -1, filterMs: 1, smoothMs: 1, denseTransitionBytes: 40_000,
      memory: { estimatedBytes: stage.bytes, formula: stage.formula, measuredBytes: stage.bytes },
      files: { acausal: 'a.npy', causal: 'c.npy', stateProbabilities: 's.npy', mapPosition: 'm.npy' },
    } satisfies PosteriorReport;
    const decode = (p?: PosteriorReport) => buildReport({
      runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
      config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['compensated'] }),
      outcome: {
        dataset,
        backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
        strategies: [strategy], notApplicable: [], windows: [], ...(p ? { posterior: p } : {}),
      },
    });
    const budget = `fits the 1.00 GiB budget (the budget is for the likelihood's tensors: an estimated ${formatBytes(peak)} for the largest electrode`;
    expect(decode().recommendation!.reason).toContain(`${budget}).`);
    expect(decode(posterior).recommendation!.reason).toContain(
      `${budget}; the decoder posterior (structured) holds ${formatBytes(stage.bytes)} of typed arrays besides ` +
        `(measured; estimated ${formatBytes(stage.bytes)}), outside the budget).`,
    );
  });

  it('names in the schema the models and posterior methods the config knows', () => {
    const def = reportSchema.definitions.posteriorReport.properties;
    expect(def.model.enum).toEqual([...POSTERIOR_MODELS]);
    expect(def.method.enum).toEqual([...POSTERIOR_METHODS]);
    expect(def.methods.items.properties.method.enum).toEqual([...POSTERIOR_METHODS]);
    const asked = reportSchema.definitions.runConfig.properties.posterior.properties;
    expect(asked.model.enum).toEqual([...POSTERIOR_MODELS]);
    expect(asked.methods.items.enum).toEqual([...POSTERIOR_METHODS]);
  });

  it('shows a profiling run\'s posterior methods side by side in report.md, structured against dense', () => {
    const dataset = summarizeDataset(makePreset('tiny', { seed: 1 }));
    const posterior: PosteriorReport = {
      model: 'decoder', method: 'structured', states: ['Continuous'], rows: 100, nStateBins: 50, nInteriorStateBins: 50,
      marginalLogLikelihood: -12.5, filterMs: 20, smoothMs: 30, denseTransitionBytes: 50 * 50 * 4,
      files: {
        acausal: 'posterior/acausal_posterior.npy', causal: 'posterior/causal_posterior.npy',
        stateProbabilities: 'posterior/acausal_state_probabilities.npy', mapPosition: 'posterior/map_position.npy',
      },
      methods: [
        { method: 'dense', filterMs: 200, smoothMs: 300, maxAbsDiffToFirst: 0 },
        { method: 'structured', filterMs: 20, smoothMs: 30, maxAbsDiffToFirst: 2.5e-7 },
      ],
    };
    const report = buildReport({
      runId: '20250101-000000-abcdef', createdAt: '2025-01-01T00:00:00.000Z', status: 'completed',
      config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'], posterior: { model: 'decoder' } }),
      outcome: {
        dataset,
        backend: { name: 'cpu', device: 'CPU', isGpu: false, isFallback: false, reason: 'asked', tfjsVersion: '4.22.0', initMs: 1, warnings: [] },
        strategies: [], notApplicable: [], windows: [], posterior,
      },
    });
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    expect(validateReport({ ...report, posterior: { ...posterior, methods: [{ method: 'dense', filterMs: 1, smoothMs: 1 }] } }).ok).toBe(false);
    expect(validateReport({ ...report, config: { ...report.config, posterior: { model: 'decoder', methods: ['sparse'] } } }).ok).toBe(false);

    const md = renderReportMarkdown(report);
    const section = md.slice(md.indexOf('### Posterior methods'), md.indexOf('\n### Accuracy'));
    expect(section).toContain("the table above is structured's");
    expect(section).toContain('| Method | Filter | Smoother | Filter + smoother | Max abs diff of the acausal posterior vs dense |');
    expect(section).toContain('| dense | 200 ms | 300 ms | 500 ms | - |');
    expect(section).toContain('| structured | 20 ms | 30 ms | 50 ms | 2.50e-7 |');
    expect(section).toContain('Structured ÷ dense: filter 0.10×, smoother 0.10×, both 0.10×.');
    // a NaN read back from report.json is null
    const nullDiff = { ...posterior, methods: [posterior.methods![0]!, { ...posterior.methods![1]!, maxAbsDiffToFirst: null as unknown as number }] };
    expect(renderReportMarkdown({ ...report, posterior: nullDiff })).toContain('| structured | 20 ms | 30 ms | 50 ms | n/a |');
    const one = { ...posterior, method: 'dense' as const, methods: [posterior.methods![0]!] };
    const alone = renderReportMarkdown({ ...report, posterior: one });
    expect(alone).toContain('| dense | 200 ms | 300 ms | 500 ms | - |');
    expect(alone).not.toContain('Structured ÷ dense');
    expect(renderReportMarkdown({ ...report, posterior: { ...posterior, methods: undefined } })).not.toContain('### Posterior methods');

    const csv = renderReportCsv(report).trimEnd().split('\n');
    expect(csv.filter((l) => l.includes(',posterior,decoder dense,ok,'))).toHaveLength(2);
    expect(csv.filter((l) => l.includes(',posterior,decoder structured,ok,'))).toHaveLength(2);
  });
});
