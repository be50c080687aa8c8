/**
 * A realistic hand-made report for the writer tests: medium preset on wasm, reference and
 * compensated measured, chunked failed, one leaky and one unhealthy electrode; with engines, the
 * NumPy peer measured and NLD not available on the machine.
 */
import type { Report, StageTime, StrategyResult, TimingStats } from '../../shared/report';

function timing(firstMs: number, samplesMs: number[]): TimingStats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const n = samplesMs.length;
  const meanMs = samplesMs.reduce((s, v) => s + v, 0) / n;
  const stdMs = Math.sqrt(samplesMs.reduce((s, v) => s + (v - meanMs) ** 2, 0) / n);
  const medianMs = n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  // with three repeats the bootstrap interval of the median spans the smallest to the largest
  return { firstMs, samplesMs, medianMs, meanMs, stdMs, minMs: sorted[0]!, maxMs: sorted[n - 1]!, n, ci95: [sorted[0]!, sorted[n - 1]!], outliers: [] };
}

const stages = (scale: number): StageTime[] => [
  { name: 'decode', calls: 3, totalMs: 180 * scale, selfMs: 2 * scale },
  { name: 'electrode', calls: 96, totalMs: 230 * scale, selfMs: 5 * scale },
  { name: 'mark-kernel', calls: 480, totalMs: 120 * scale, selfMs: 120 * scale },
  { name: 'encode', calls: 3, totalMs: 52 * scale, selfMs: 1 * scale },
];

const reference: StrategyResult = {
  strategy: 'reference',
  resolved: ['reference'],
  status: 'ok',
  encode: timing(812.5, [17.1, 18.4, 16.9]),
  decode: timing(1430.25, [61.2, 63.9, 60.4]),
  total: timing(2242.75, [78.3, 82.3, 77.3]),
  stages: stages(1),
  kernels: [
    { name: 'BatchMatMul', calls: 96, totalMs: 31.25, bytesAdded: 12_582_912 },
    { name: 'Exp', calls: 192, totalMs: 12.5, bytesAdded: 25_165_824 },
    { name: 'Sum', calls: 96, totalMs: 4.75, bytesAdded: 196_608 },
  ],
  memory: { estimatedPeakBytes: 8_388_608, measuredPeakTensorBytes: 9_437_184, peakRssBytes: 412_090_368, peakHeapBytes: 61_865_984 },
  leak: { tensorsBefore: 12, tensorsAfter: 12, perRepeat: [0, 0, 0], leaked: false },
  agreementWithExpected: { against: 'expected', maxAbsDiff: 3.05e-5, meanAbsDiff: 1.54e-6, allclose: true, argmaxAgreement: 1 },
  fitAgreement: { occupancy: 2.1e-7, meanRates: 4.4e-6, summedGroundProcessIntensity: 1.2e-5 },
  health: {
    nonFiniteOccupancy: 0, nonFiniteGroundProcess: 0, nonFiniteLikelihood: 0, floorShare: 0.012,
    electrodes: [
      { electrode: 'e0', nEncodingSpikes: 210, nDecodingSpikes: 98, nonFinite: 0, floorShare: 0.01, tooFewEncodingSpikes: false },
      { electrode: 'e7', nEncodingSpikes: 3, nDecodingSpikes: 2, nonFinite: 4, floorShare: 0.75, tooFewEncodingSpikes: true },
    ],
  },
};

const compensated: StrategyResult = {
  ...reference,
  strategy: 'compensated',
  resolved: ['compensated'],
  encode: timing(790.0, [16.5, 17.0, 16.0]),
  decode: timing(2950.0, [20.4, 21.9, 19.8]),
  total: { ...timing(3740.0, [36.9, 38.9, 35.8]), stoppedBy: 'precision' },
  vsReference: { against: 'reference', ratio: 36.9 / 78.3, ratioCi95: [0.435, 0.503], verdict: 'faster' },
  stages: stages(0.5),
  memory: { estimatedPeakBytes: 1_048_576, measuredPeakTensorBytes: 1_310_720, peakRssBytes: 398_458_880, peakHeapBytes: 60_817_408 },
  leak: { tensorsBefore: 12, tensorsAfter: 18, perRepeat: [2, 2, 2], leaked: true },
  agreementWithReference: { against: 'reference', maxAbsDiff: 1.53e-5, meanAbsDiff: 4.2e-7, allclose: true, argmaxAgreement: 0.998 },
  agreementWithExpected: { against: 'expected', maxAbsDiff: 2.9e-5, meanAbsDiff: 1.1e-6, allclose: true, argmaxAgreement: 0.997 },
};

const chunked: StrategyResult = {
  strategy: 'chunked',
  resolved: [],
  status: 'failed',
  error: { name: 'AppError', code: 'RUN_FAILED', message: 'chunked: out of memory at electrode e3' },
  stages: [],
  kernels: [],
};

/** the NumPy peer, run as an external engine: timings and agreement, no memory formula or kernels */
const numpyEngine: StrategyResult = {
  strategy: 'numpy',
  resolved: [],
  status: 'ok',
  encode: timing(95.0, [20.2, 21.0, 19.9]),
  decode: timing(410.0, [88.1, 90.4, 87.5]),
  total: timing(505.0, [108.3, 111.4, 107.4]),
  stages: [{ name: 'predict', calls: 3, totalMs: 266, selfMs: 266 }],
  kernels: [],
  agreementWithReference: { against: 'reference', maxAbsDiff: 2.2e-5, meanAbsDiff: 6.1e-7, allclose: true, argmaxAgreement: 0.996 },
  external: {
    engine: 'numpy', version: '2.1.3', device: 'cpu', dtype: 'float32', info: { blas: 'openblas', threads: 2 },
    command: ['python3', '/opt/kde profiler/resources/engines/numpy_engine.py'], exitCode: 0,
    counters: { 'xla compilations': 0 }, peakRssBytes: 157_286_400,
  },
};

/** NLD asked for on a machine without JAX: the engine exits 3 and says why */
const nldEngine: StrategyResult = {
  strategy: 'nld:clusterless_kde:x64',
  resolved: [],
  status: 'failed',
  error: { name: 'AppError', code: 'RUN_FAILED', message: "cannot run on this machine: No module named 'jax'" },
  stages: [],
  kernels: [],
  external: {
    engine: '', version: '', device: '', dtype: '', info: {}, command: ['python3', '/opt/kde profiler/resources/engines/nld_engine.py', '--variant', 'clusterless_kde', '--x64'],
    exitCode: 3, unavailable: "No module named 'jax'",
  },
};

/** The example run with two external engines beside its strategies: numpy finished, NLD cannot run here. */
export function exampleReportWithEngines(): Report {
  const r = exampleReport();
  r.config.engines = ['numpy', 'nld:clusterless_kde:x64'];
  r.strategies.push(structuredClone(numpyEngine), structuredClone(nldEngine));
  return r;
}

/** A fresh deep copy each call, so a test may mutate it. */
export function exampleReport(): Report {
  return structuredClone<Report>({
    schemaVersion: 1,
    tool: { name: 'kde-profiler', version: '0.1.0' },
    runId: '20260101-120000-medium',
    createdAt: '2026-01-01T12:00:00.000Z',
    config: {
      data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 },
      backend: 'wasm', strategies: ['reference', 'compensated', 'chunked'], repeats: 3, warmup: 1,
      local: true, saveLikelihood: false, trace: true,
    },
    dataset: {
      name: 'medium', source: 'preset:medium', nElectrodes: 16,
      electrodes: [{ name: 'e0', nFeatures: 2, nEncodingSpikes: 210, nDecodingSpikes: 98 }],
      nEncodingSpikes: 3200, nDecodingSpikes: 1600, nPositionSamples: 2000, positionDims: 1,
      positionRange: [0, 200], timeSpan: [0, 0.998], nTime: 500, nBins: 500, featureDims: [2],
      positionStd: [6], waveformStd: 24, blockSize: 100, hasExpected: true, notes: ['grid built from place_bin_size 0.4'],
    },
    backend: {
      name: 'wasm', device: 'CPU (WebAssembly SIMD)', isGpu: false, isFallback: false, reason: 'asked for wasm',
      tfjsVersion: '4.22.0', initMs: 41.7, warnings: [],
    },
    strategies: [reference, compensated, chunked],
    agreementMatrix: {
      strategies: ['reference', 'compensated'],
      maxAbsDiff: [[0, 1.53e-5], [1.53e-5, 0]],
      meanAbsDiff: [[0, 4.2e-7], [4.2e-7, 0]],
      allclose: [[true, true], [true, true]],
      argmaxAgreement: [[1, 0.998], [0.998, 1]],
    },
    local: {
      timing: timing(120.5, [3.2, 3.4, 3.1]),
      agreementWithExpected: { against: 'expected', maxAbsDiff: 8.1e-6, meanAbsDiff: 2.2e-7, allclose: true, argmaxAgreement: 1 },
    },
    findings: [
      { id: 'cold-start', severity: 'info', message: 'The first call of reference took 28.6× its warm median (kernel initialization).', strategy: 'reference', value: 28.6 },
      { id: 'tensor-leak', severity: 'warning', message: 'compensated leaves 2 tensors behind per repeat.', strategy: 'compensated', value: 2 },
      { id: 'too-few-spikes', severity: 'error', message: 'Electrode e7 has 3 encoding spikes | too few for a mark density.', electrode: 'e7' },
    ],
    recommendation: {
      strategy: 'compensated', blockSize: 100, reason: 'Fastest warm total (36.9 ms) with agreement within 1e-4.',
      runnerUp: { strategy: 'reference', against: 'compensated', ratio: 78.3 / 36.9, ratioCi95: [1.99, 2.3], verdict: 'slower' },
    },
    environment: {
      node: 'v20.20.2', platform: 'linux', arch: 'x64', cpus: 2, totalMemoryBytes: 8_589_934_592,
      load: { loadAverageStart: [0.52, 0.4, 0.3], loadAverageEnd: [1.1, 0.6, 0.4], otherCpuShare: 0.032, busy: false },
    },
    notApplicable: ['JIT compilation cache: TensorFlow.js has no XLA compilation step on wasm.'],
    status: 'completed',
  });
}
