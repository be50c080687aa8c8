/**
 * Builders of hand-made results, backends, datasets and reports for this folder's tests only.
 */
import { isDispatch, type StrategyChoice } from '../../shared/config';
import { isExternalEngineName, type ExternalEngineName } from '../../shared/externalEngines';
import type { DatasetSummary } from '../../shared/dataset';
import type { BackendInfo, Report, StrategyResult, TimingStats } from '../../shared/report';
import { timingStats } from './stats';

export function timing(firstMs: number, samplesMs: number[]): TimingStats {
  return timingStats(firstMs, samplesMs);
}

/** A strategy that ran fine with warm total `ms` (first call equal to it unless given). */
export function okResult(strategy: StrategyResult['strategy'], ms: number, extra: Partial<StrategyResult> = {}): StrategyResult {
  return {
    strategy,
    resolved: isDispatch(strategy) ? ['compensated'] : isExternalEngineName(strategy) ? [] : [strategy],
    status: 'ok',
    total: timing(ms, [ms, ms, ms]),
    stages: [],
    kernels: [],
    ...extra,
  };
}

export function cpuBackend(extra: Partial<BackendInfo> = {}): BackendInfo {
  return {
    name: 'wasm',
    device: 'CPU (WebAssembly SIMD)',
    isGpu: false,
    isFallback: false,
    reason: 'requested',
    tfjsVersion: '4.22.0',
    initMs: 5,
    warnings: [],
    ...extra,
  };
}

export function dataset(extra: Partial<DatasetSummary> = {}): DatasetSummary {
  const electrodes = Array.from({ length: 16 }, (_, i) => ({
    name: `e${i}`,
    nFeatures: 2,
    nEncodingSpikes: 200,
    nDecodingSpikes: 100,
  }));
  return {
    name: 'medium',
    source: 'preset:medium',
    nElectrodes: electrodes.length,
    electrodes,
    nEncodingSpikes: 3200,
    nDecodingSpikes: 1600,
    nPositionSamples: 2000,
    positionDims: 1,
    positionRange: [0, 100],
    timeSpan: [0, 20],
    nTime: 500,
    nBins: 500,
    featureDims: [2],
    positionStd: [Math.sqrt(12.5)],
    waveformStd: 24,
    blockSize: 100,
    hasExpected: false,
    notes: [],
    ...extra,
  };
}

export function report(strategies: StrategyResult[], extra: Partial<Report> = {}): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'kde-profiler', version: '0.1.0' },
    createdAt: '2026-01-01T00:00:00.000Z',
    config: {
      data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 },
      backend: 'wasm',
      strategies: strategies.flatMap((s): StrategyChoice[] => (isExternalEngineName(s.strategy) ? [] : [s.strategy])),
      engines: strategies.flatMap((s): ExternalEngineName[] => (isExternalEngineName(s.strategy) ? [s.strategy] : [])),
      repeats: 3,
      warmup: 1,
      local: false,
      saveLikelihood: false,
      trace: true,
    },
    dataset: dataset(),
    backend: cpuBackend(),
    strategies,
    findings: [],
    environment: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2, totalMemoryBytes: 8e9 },
    notApplicable: [],
    status: 'completed',
    ...extra,
  };
}
