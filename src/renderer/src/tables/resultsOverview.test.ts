import { describe, expect, it } from 'vitest';
import type { PosteriorReport, Report, TimingStats } from '../../../shared/report';
import { report, strategyResult } from '../testing/sampleData';
import { resultsOverview } from './resultsOverview';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

function once(ms: number): TimingStats {
  return { firstMs: ms, samplesMs: [], medianMs: ms, meanMs: ms, stdMs: 0, minMs: ms, maxMs: ms, n: 0 };
}

function posterior(extra: Partial<PosteriorReport> = {}): PosteriorReport {
  return {
    model: 'detector', method: 'structured', states: ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'], rows: 200,
    nStateBins: 202, nInteriorStateBins: 202, marginalLogLikelihood: -100, filterMs: 600, smoothMs: 660, denseTransitionBytes: 1000,
    localMs: 30_800,
    memory: { estimatedBytes: 600 * 1024, formula: 'f', measuredBytes: 700 * 1024 },
    files: { acausal: 'a', causal: 'c', stateProbabilities: 's', mapPosition: 'm' },
    accuracy: {
      likelihood: { rows: 200, medianAbsError: 59.3, shareWithin10: 0.29 },
      posterior: { rows: 200, medianAbsError: 2.11, shareWithin10: 0.981, units: 'cm' },
    },
    ...extra,
  };
}

/** a production-window decode: one strategy, one call, the posterior after it, a whole-recording projection */
function decodeReport(extra: Partial<Report> = {}): Report {
  const auto = strategyResult('auto', 84_000, {
    encode: once(2_000), decode: once(84_000), total: once(86_000),
    memory: { estimatedPeakBytes: 64.8 * MiB, measuredPeakTensorBytes: 0, peakRssBytes: 1.21 * GiB },
  });
  return report({
    strategies: [auto], agreementMatrix: undefined, findings: [], recommendation: undefined, posterior: posterior(),
    projection: { recordingRows: 20_000, decodedRows: 2_000, likelihoodMs: 840_000, localMs: 308_000, posteriorMs: 12_600, peakRssBytes: { measured: 1.21 * GiB, projected: 2.71 * GiB } },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, totalMemoryBytes: 8 * GiB, load: { loadAverageStart: [0.2], loadAverageEnd: [0.3], busy: false } },
    ...extra,
  });
}

describe('resultsOverview of a profiling run', () => {
  const o = resultsOverview(report());

  it('names the fastest strategy and by how much the next one is slower', () => {
    expect(o.speed).toEqual({
      headline: 'compensated · 50 ms',
      detail: 'The fastest of 2, to fit and decode (warm median of 2 repeats). The next, reference (100 ms), takes 2.00× as long (medians; no interval for this pair).',
    });
  });

  it('says when the next is within noise, from the interval the run measured', () => {
    const vsReference = { against: 'reference' as const, ratio: 0.93, ratioCi95: [0.8, 1.1] as [number, number], verdict: 'no significant difference' as const };
    const close = resultsOverview(report({ strategies: [strategyResult('reference', 100), strategyResult('compensated', 93, { vsReference })] }));
    expect(close.speed?.detail).toMatch(/The next, reference \(100 ms\), takes 1\.08× as long: no significant difference \(95 % CI 0\.91–1\.25 holds 1\)\.$/);
  });

  it('shows where the fastest strategy spends its time, fit against likelihood', () => {
    expect(o.stages?.segments.map((s) => s.name)).toEqual(['fit', 'likelihood']);
    expect(o.stages?.note).toBe('warm medians of compensated');
    expect(o.stages?.segments.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1);
  });

  it('sets the measured peak against the machine and says what the estimate covers', () => {
    expect(o.memory?.headline).toBe('200 MiB peak · 2.4 % of 8.00 GiB');
    expect(o.memory?.text).toBe("Measured: the engine process's peak RSS.");
    expect(o.memory?.estimate).toBe("The formula's 8.00 MiB is compensated's likelihood tensors for the largest electrode (what the memory budget limits); the rest of the peak is the runtime and the data.");
    expect(o.projection).toBeNull();
  });

  it("splits a run's fit and likelihood by stage, leaving out the phases' wait for the workers", () => {
    const stages = [
      { name: 'decode', calls: 3, totalMs: 66, selfMs: 66 }, { name: 'electrode', calls: 96, totalMs: 113, selfMs: 29 },
      { name: 'reduce', calls: 69, totalMs: 33, selfMs: 33 }, { name: 'position-kernel', calls: 96, totalMs: 23, selfMs: 23 },
      { name: 'ground-process', calls: 48, totalMs: 13, selfMs: 13 }, { name: 'mark-kernel', calls: 69, totalMs: 12.5, selfMs: 12.5 },
      { name: 'occupancy', calls: 6, totalMs: 4, selfMs: 4 }, { name: 'scatter', calls: 69, totalMs: 0.7, selfMs: 0.7 },
    ];
    const compute = resultsOverview(report({ strategies: [strategyResult('compensated', 28, { stages })] })).compute!;
    expect(compute.segments.map((s) => [s.name, s.ms])).toEqual([
      ['reduce', 33], ['position-kernel', 23], ['ground-process', 13], ['mark-kernel', 12.5], ['occupancy', 4], ['other stages', 0.7], ['electrode and block loops', 29],
    ]);
    expect(compute.note).toBe("inside compensated's fit and likelihood, each stage's own time over its 2 repeats, all threads");
    expect(resultsOverview(decodeReport()).compute).toBeNull();
  });

  it("says a webgpu run's stages are the GPU's time, and draws no bar for a device that could not time them", () => {
    const onGpu = [{ name: 'reduce', calls: 69, totalMs: 30, selfMs: 30, clock: 'gpu' as const, hostMs: 2, hostSelfMs: 2 }];
    const gpu = resultsOverview(report({ strategies: [strategyResult('compensated', 28, { stages: onGpu })] })).compute!;
    expect(gpu.note).toBe("inside compensated's fit and likelihood, each stage's own GPU time (timestamp queries) over its 2 repeats, all threads");
    const unsplit = [{ name: 'reduce', calls: 69, totalMs: 0, selfMs: 0, clock: 'unsplit' as const, hostMs: 2, hostSelfMs: 2 }];
    expect(resultsOverview(report({ strategies: [strategyResult('compensated', 28, { stages: unsplit })] })).compute).toBeNull();
  });

  it('has no caveat, but says the load was not recorded', () => {
    expect(o.caveats).toEqual([]);
    expect(o.loadRecorded).toBe(false);
  });
});

describe('resultsOverview of a decode', () => {
  const o = resultsOverview(decodeReport());

  it("judges the posterior, what the lab reads, not the likelihood's argmax", () => {
    expect(o.accuracy?.subject).toBe('detector posterior');
    expect(o.accuracy?.headline).toBe('2.11 cm · 98.1 % within 10');
    expect(o.accuracy?.detail).toMatch(/^Median error of the posterior's most likely position \(MAP\) against the true position over 200 rows/);
    expect(o.accuracy?.detail).toContain('The likelihood alone: 59.3, 29.0 % within 10.');
  });

  it('leads with the whole decode, the time a lab plans by', () => {
    expect(o.speed?.headline).toBe('2.0 min · the whole decode');
    expect(o.speed?.detail).toMatch(/^auto → compensated took 1\.4 min to fit and compute the likelihood \(one call\)/);
  });

  it('breaks the decode into likelihood, local, filter and smoother', () => {
    expect(o.stages?.segments.map((s) => [s.name, s.ms])).toEqual([['fit', 2_000], ['likelihood', 84_000], ['local likelihood', 30_800], ['filter', 600], ['smoother', 660]]);
    expect(o.stages?.note).toBe('one call each, auto → compensated');
  });

  it("leads with the measured peak and the whole recording's, not the formula's 64.8 MiB", () => {
    expect(o.memory?.headline).toBe('1.21 GiB peak · 15.1 % of 8.00 GiB');
    expect(o.memory?.text).toContain('The whole recording: about 2.71 GiB (33.9 %).');
    expect(o.memory?.estimate).toMatch(/^The formula's 64\.8 MiB is compensated's likelihood tensors for the largest electrode/);
    expect(o.memory?.estimate).toContain("the rest of the peak is the runtime, the data and the posterior's 700 KiB (measured)");
    expect(o.memory?.warn).toBe(false);
    expect(o.projection).toMatch(/^The whole recording \(20,000 rows, 10\.0× this decode's 2,000\)/);
  });

  it('carries the busy machine and the unfinished run as caveats', () => {
    const busy = resultsOverview(decodeReport({
      status: 'cancelled',
      findings: [{ id: 'machine-busy', severity: 'warning', message: 'Timings are likely disturbed: load average 6.20 on 2 cores.' }],
    }));
    expect(busy.speed?.detail).toContain('(its first (cold) call; the run was cancelled before more)');
    expect(busy.caveats).toEqual([
      'The run was cancelled: this report holds what it measured before it ended.',
      'Timings are likely disturbed: load average 6.20 on 2 cores.',
    ]);
  });

  it('has no speed comparison, accuracy or memory where nothing finished', () => {
    const none = resultsOverview(report({ strategies: [strategyResult('reference', 100, { status: 'failed', total: undefined, memory: undefined })] }));
    expect([none.speed, none.accuracy, none.stages, none.memory]).toEqual([null, null, null, null]);
  });
});
