/**
 * Small hand-made values of the contract types for this folder's tests only.
 */
import type {
  CounterSeries, DataInspection, LikelihoodView, PresetInfo, RunDetail, RunIndexEntry, SystemInfo, TimelineView,
} from '../../../shared/api';
import { isDispatch } from '../../../shared/config';
import { isExternalEngineName } from '../../../shared/externalEngines';
import type { DatasetSummary } from '../../../shared/dataset';
import type { Report, StrategyResult, TimingStats } from '../../../shared/report';

export function timing(firstMs: number, medianMs: number, stdMs = 0): TimingStats {
  return { firstMs, samplesMs: [medianMs, medianMs], medianMs, meanMs: medianMs, stdMs, minMs: medianMs, maxMs: medianMs, n: 2 };
}

export function systemInfo(): SystemInfo {
  return {
    version: '0.1.0',
    tfjsVersion: '4.22.0',
    node: 'v20.0.0',
    platform: 'linux',
    cpus: 2,
    totalMemoryBytes: 8 * 1024 ** 3,
    backends: [
      { name: 'wasm', available: true, detail: 'CPU (WebAssembly SIMD)', isGpu: false },
      { name: 'cpu', available: true, detail: 'CPU (plain JS)', isGpu: false },
      { name: 'webgpu', available: false, detail: 'no WebGPU adapter', isGpu: true },
      { name: 'tensorflow', available: false, detail: 'tfjs-node-gpu is not installed', isGpu: true },
    ],
    defaultBackend: 'wasm',
  };
}

export function presets(): PresetInfo[] {
  return [
    { name: 'tiny', nElectrodes: 2, nTimeEncoding: 100, nTimeDecoding: 50, meanEncodingSpikes: 50, meanDecodingSpikes: 20, nPositionBins: 20 },
    { name: 'small', nElectrodes: 4, nTimeEncoding: 1000, nTimeDecoding: 500, meanEncodingSpikes: 500, meanDecodingSpikes: 200, nPositionBins: 100 },
  ];
}

export function datasetSummary(extra: Partial<DatasetSummary> = {}): DatasetSummary {
  const electrodes = [
    { name: 'e0', nFeatures: 2, nEncodingSpikes: 120, nDecodingSpikes: 40 },
    { name: 'e1', nFeatures: 2, nEncodingSpikes: 80, nDecodingSpikes: 30 },
  ];
  return {
    name: 'tiny', source: 'preset:tiny', nElectrodes: 2, electrodes, nEncodingSpikes: 200, nDecodingSpikes: 70,
    nPositionSamples: 100, positionDims: 1, positionRange: [0, 100], timeSpan: [0, 10], nTime: 50, nBins: 20,
    featureDims: [2], positionStd: [3.5], waveformStd: 24, blockSize: 100, hasExpected: false, notes: [], ...extra,
  };
}

export function inspection(): DataInspection {
  return {
    source: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 },
    summary: datasetSummary(),
    findings: [{ code: 'W101', severity: 'warning', message: 'electrode e1 has few spikes', electrode: 'e1' }],
    preview: {
      positionTime: [0, 1, 2, 3],
      position: [0, 10, 20, 30],
      spikeTimes: [{ electrode: 'e0', times: [0.5, 1.5] }, { electrode: 'e1', times: [2.5] }],
    },
  };
}

export function strategyResult(strategy: StrategyResult['strategy'], totalMs: number, extra: Partial<StrategyResult> = {}): StrategyResult {
  return {
    strategy,
    resolved: isDispatch(strategy) ? ['compensated'] : isExternalEngineName(strategy) ? [] : [strategy],
    status: 'ok',
    encode: timing(totalMs / 2, totalMs / 4, 1),
    decode: timing(totalMs, totalMs * 0.75, 2),
    total: timing(totalMs * 2, totalMs, 3),
    stages: [
      {
        name: 'electrode', calls: 8, totalMs, selfMs: totalMs * 0.8,
        byElectrode: [{ electrode: 0, calls: 4, totalMs: totalMs * 0.6 }, { electrode: 1, calls: 4, totalMs: totalMs * 0.4 }],
      },
      { name: 'encode', calls: 2, totalMs: totalMs * 0.25, selfMs: 0 },
    ],
    kernels: [
      { name: 'MatMul', calls: 10, totalMs: totalMs * 0.5, bytesAdded: 1024 },
      { name: 'Exp', calls: 10, totalMs: totalMs * 0.2, bytesAdded: 512 },
    ],
    memory: { estimatedPeakBytes: 8 * 1024 * 1024, measuredPeakTensorBytes: 6 * 1024 * 1024, peakRssBytes: 200 * 1024 * 1024 },
    ...extra,
  };
}

export function report(extra: Partial<Report> = {}): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'kde-profiler', version: '0.1.0' },
    runId: 'run-1',
    createdAt: '2026-01-01T00:00:00.000Z',
    config: {
      data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 },
      backend: 'wasm', strategies: ['reference', 'compensated'], repeats: 2, warmup: 1, local: false, saveLikelihood: true, trace: true,
    },
    dataset: datasetSummary(),
    backend: { name: 'wasm', device: 'CPU (WebAssembly SIMD)', isGpu: false, isFallback: false, reason: 'requested', tfjsVersion: '4.22.0', initMs: 5, warnings: [] },
    strategies: [strategyResult('reference', 100), strategyResult('compensated', 50)],
    agreementMatrix: {
      strategies: ['reference', 'compensated'],
      maxAbsDiff: [[0, 1e-5], [1e-5, 0]],
      meanAbsDiff: [[0, 1e-6], [1e-6, 0]],
      allclose: [[true, true], [true, true]],
      argmaxAgreement: [[1, 0.98], [0.98, 1]],
    },
    findings: [{ id: 'cold-start', severity: 'info', message: 'the first call is 2× slower', strategy: 'reference' }],
    recommendation: { strategy: 'compensated', blockSize: 100, reason: 'fastest within the memory budget' },
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, totalMemoryBytes: 8 * 1024 ** 3 },
    notApplicable: [],
    status: 'completed',
    ...extra,
  };
}

export function runEntry(id: string, extra: Partial<RunIndexEntry> = {}): RunIndexEntry {
  return {
    id, status: 'completed', createdAt: '2026-01-01T00:00:00.000Z', dataset: 'tiny', backend: 'wasm',
    strategies: ['reference', 'compensated'],
    headline: [{ strategy: 'reference', totalMedianMs: 100 }, { strategy: 'compensated', totalMedianMs: 50 }],
    ...extra,
  };
}

export function runDetail(id: string): RunDetail {
  const r = report({ runId: id });
  return { entry: runEntry(id), config: r.config, report: r };
}

export function timelineView(extra: Partial<TimelineView> = {}): TimelineView {
  return {
    startUs: 0, endUs: 1000, totalUs: 1000,
    lanes: [{ id: 'service:1', name: 'service', process: 'service', thread: 1 }, { id: 'engine:1', name: 'engine · main', process: 'engine', thread: 1 }],
    spans: [
      { lane: 'engine:1', name: 'run', cat: 'run', startUs: 0, durUs: 1000, depth: 0, merged: 1 },
      { lane: 'engine:1', name: 'decode', cat: 'engine', startUs: 100, durUs: 400, depth: 1, merged: 1, args: { strategy: 'reference' } },
      { lane: 'service:1', name: '3 spans', cat: 'io', startUs: 10, durUs: 5, depth: 0, merged: 3 },
    ],
    instants: [], totalEvents: 5, ...extra,
  };
}

export function counterSeries(): CounterSeries[] {
  return [
    { name: 'memory (MB)', key: 'rss', points: [[0, 100], [1000, 120]] },
    { name: 'tensors', key: 'MB', points: [[0, 1], [1000, 3]] },
    { name: 'tensors', key: 'count', points: [[0, 5], [1000, 9]] },
  ];
}

/**
 * A likelihood answer for the request. Run ids starting with 'decode' stand for a decode run of
 * 20 000 rows in windows of 2000 (each displayed row is its block's first row, the peak moving
 * between the two bins every 100 rows); any other run is the 3 × 2 sample.
 */
export function likelihoodView(
  request: { startRow?: number; endRow?: number; maxRows?: number; relative?: boolean } = {}, runId = 'run-1',
): LikelihoodView {
  const long = runId.startsWith('decode');
  const nTime = long ? 20_000 : 3;
  const startRow = request.startRow ?? 0;
  const endRow = request.endRow ?? nTime;
  const rows = Math.min(endRow - startRow, request.maxRows ?? 1000);
  const firstRows = Array.from({ length: rows }, (_, i) => startRow + Math.floor((i * (endRow - startRow)) / rows));
  const sample = [0, -1, -2, -0.5, -Infinity, -3];
  const raw = firstRows.flatMap((r) => (long ? (Math.floor(r / 100) % 2 === 0 ? [0, -2 - (r % 5)] : [-2 - (r % 5), 0]) : sample.slice(r * 2, r * 2 + 2)));
  const values = request.relative ? raw.map((v, k) => v - Math.max(raw[k - (k % 2)]!, raw[k - (k % 2) + 1]!)) : raw;
  const decodedPosition = firstRows.map((r) => (long ? (Math.floor(r / 100) % 2 === 0 ? 5 : 15) : [5, 15, 5][r]!));
  const view: LikelihoodView = {
    strategy: 'reference', nTime, nBins: 2, startRow, endRow, rowsPerRow: (endRow - startRow) / rows, relative: request.relative ?? false,
    rows, cols: 2, values, binCenters: [5, 15],
    time: firstRows.map((r) => r / 10), decodedPosition, truePosition: long ? decodedPosition.map((p) => p + 1) : firstRows.map((r) => [6, 14, 7][r]!),
    strategies: ['reference', 'compensated'],
  };
  if (long) view.windows = { rowsPerWindow: 2000, count: 10 };
  return view;
}
