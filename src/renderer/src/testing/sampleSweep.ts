/**
 * A sweep for the renderer's tests, as `kde-profiler sweep` writes one: encoding spikes over four
 * values, reference growing with their square and compensated linearly, so compensated takes over
 * at 50 (a significant crossover); the last value's run has one strategy failed.
 */
import type { SweepPoint, SweepResult, SweepSeries } from '../../../shared/sweep';

const VALUES = [10, 20, 40, 80];
export const SAMPLE_SWEEP_ID = '20260105-120000-abcdef';
export const SAMPLE_RUN_IDS = ['20260105-120001-000001', '20260105-120002-000002', '20260105-120003-000003', '20260105-120004-000004'];

function point(ms: number): SweepPoint {
  return { ms, ci95: [ms * 0.97, ms * 1.03], n: 5 };
}

function series(metric: string, ms: (v: number) => number, exponent: number): SweepSeries {
  return {
    metric,
    statistic: metric === 'total' || metric === 'encode' || metric === 'decode' ? 'median' : 'mean per repeat',
    points: VALUES.map((v) => point(ms(v))),
    slope: { exponent, scaleMs: ms(1), r2: 1, points: VALUES.length },
  };
}

export function sampleSweep(overrides: Partial<SweepResult> = {}): SweepResult {
  const reference = (v: number): number => 0.01 * v * v;
  const compensated = (v: number): number => 0.5 * v;
  return {
    format: 'kde-profiler-sweep/1',
    id: SAMPLE_SWEEP_ID,
    createdAt: '2026-01-05T12:00:00.000Z',
    updatedAt: '2026-01-05T12:05:00.000Z',
    status: 'completed',
    vary: 'encoding-spikes',
    values: [...VALUES],
    runIds: [...SAMPLE_RUN_IDS],
    runs: VALUES.map((value, i) => ({ value, runId: SAMPLE_RUN_IDS[i]!, status: 'completed', dataPath: `/runs/sweeps/x/medium.encoding-spikes-${value}.npz` })),
    data: 'preset:medium',
    config: {
      data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm', strategies: ['reference', 'compensated'],
      repeats: 5, warmup: 1, local: false, saveLikelihood: false, trace: true,
    },
    strategies: [
      { strategy: 'reference', series: [series('total', reference, 2), series('encode', (v) => reference(v) / 4, 2), series('mark-kernel', (v) => reference(v) / 2, 2)] },
      { strategy: 'compensated', series: [series('total', compensated, 1), series('encode', (v) => compensated(v) / 4, 1)] },
    ],
    metrics: ['total', 'encode', 'decode', 'mark-kernel'],
    fastest: ['reference', 'reference', 'reference', 'compensated'],
    clearlyFastest: ['reference', 'reference', 'reference', 'compensated'],
    crossovers: [{
      from: 'reference', to: 'compensated', below: 40, above: 80, at: 50, atMs: 25, significant: true,
      text: 'compensated overtakes reference at ≈ 50 encoding spikes per electrode (between 40 and 80); significant: the 95 % intervals separate the two at both ends',
    }],
    conclusion: 'compensated overtakes reference at ≈ 50 encoding spikes per electrode (between 40 and 80); significant: the 95 % intervals separate the two at both ends.',
    warnings: [],
    notes: [],
    ...overrides,
  };
}
