/**
 * The report of a merged run, from its shards' reports. The shards ran side by side, so a
 * strategy's time is its critical path: each repeat as long as the slowest shard's, and its stage
 * and kernel breakdown the slowest shard's (but for each electrode's time, from the shard that ran it). The dataset is the whole one again, electrodes in
 * their order; likelihood agreements are measured on the merged likelihoods, not taken from the
 * shards (a shard's partial sums agree or disagree with nothing). Per-shard timings, the critical
 * path and the cluster's CPU time are findings here and numbers in merge.json.
 */
import type { RunConfig, ShardSplit } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import { formatMs } from '../../shared/format';
import type { ElectrodeStageTime, Finding, MemoryStats, NumericalHealth, Report, StageTime, StrategyResult, TimingStats } from '../../shared/report';
import { datasetScale, deriveFindings, recommend, timingStats, type AnalysisInput } from '../analysis';
import { PRESET_INFO } from '../data';
import type { MergedLikelihoods } from './mergeLikelihood';
import type { ShardTimeline } from './mergeTrace';
import { shardName, type ShardRun } from './shardRuns';

/** Per-shard values back in the dataset's electrode order: round-robin interleaves, a spike split lists shard by shard. */
export function inElectrodeOrder<T>(perShard: readonly (readonly T[])[], by: string): T[] {
  if ((by as ShardSplit) !== 'round-robin') return perShard.flat();
  const total = perShard.reduce((n, s) => n + s.length, 0);
  const count = perShard.length;
  return Array.from({ length: total }, (_, e) => perShard[e % count]![Math.floor(e / count)]!);
}

/** notes a shard added about itself (data/dataset/shard.ts): the merged dataset is whole again */
const SHARD_NOTE = /^shard \d+\/\d+ \(/;

export function mergedDataset(shards: readonly ShardRun[]): DatasetSummary {
  const first = shards[0]!.report.dataset;
  const by = shards[0]!.shard.by;
  const electrodes = inElectrodeOrder(shards.map((s) => s.report.dataset.electrodes), by);
  const sum = (f: (d: DatasetSummary) => number) => shards.reduce((n, s) => n + f(s.report.dataset), 0);
  return {
    ...first,
    nElectrodes: electrodes.length,
    electrodes,
    nEncodingSpikes: sum((d) => d.nEncodingSpikes),
    nDecodingSpikes: sum((d) => d.nDecodingSpikes),
    featureDims: [...new Set(shards.flatMap((s) => s.report.dataset.featureDims))].sort((a, b) => a - b),
    notes: [
      ...first.notes.filter((n) => !SHARD_NOTE.test(n)),
      `merged from ${shards.length} shard${shards.length === 1 ? '' : 's'} split by ${by}: runs ${shards.map((s) => s.runId).join(', ')}`,
    ],
  };
}

/** The shards' timings of one phase as run side by side: repeat r takes as long as the slowest shard's repeat r. */
export function criticalTiming(parts: readonly (TimingStats | undefined)[]): TimingStats | undefined {
  if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
  const stats = parts as TimingStats[];
  const firstMs = Math.max(...stats.map((s) => s.firstMs));
  const n = stats[0]!.samplesMs.length;
  if (stats.every((s) => s.samplesMs.length === n)) {
    return timingStats(firstMs, Array.from({ length: n }, (_, r) => Math.max(...stats.map((s) => s.samplesMs[r]!))));
  }
  // repeats that do not line up (a stopping rule ended them apart): the slowest shard's, whole
  const slowest = stats.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  return timingStats(firstMs, slowest.samplesMs);
}

/**
 * The slowest shard's stages, with the electrode stage's time per electrode taken from every shard
 * (each electrode ran in one) and indexed in the whole dataset: a shard's spans count its
 * electrodes from 0.
 */
function mergedStages(shards: readonly ShardRun[], parts: readonly (StrategyResult | undefined)[], slowest: StrategyResult): StageTime[] {
  const by = shards[0]!.shard.by;
  const places = inElectrodeOrder(shards.map((s, i) => s.report.dataset.electrodes.map((_, j) => `${i}:${j}`)), by);
  const globalIndex = new Map(places.map((key, g) => [key, g]));
  return slowest.stages.map((stage) => {
    if (!stage.byElectrode) return stage;
    const byElectrode: ElectrodeStageTime[] = parts.flatMap((p, i) =>
      (p?.stages.find((x) => x.name === stage.name)?.byElectrode ?? []).map((t) => ({ ...t, electrode: globalIndex.get(`${i}:${t.electrode}`) ?? -1 })));
    return { ...stage, byElectrode: byElectrode.filter((t) => t.electrode >= 0).sort((a, b) => a.electrode - b.electrode) };
  });
}

function maxMemory(parts: readonly StrategyResult[]): MemoryStats | undefined {
  const mems = parts.map((p) => p.memory).filter((m): m is MemoryStats => m !== undefined);
  if (mems.length === 0) return undefined;
  const max = (f: (m: MemoryStats) => number | undefined) => {
    const values = mems.map(f).filter((v): v is number => v !== undefined);
    return values.length > 0 ? Math.max(...values) : undefined;
  };
  const memory: MemoryStats = { estimatedPeakBytes: max((m) => m.estimatedPeakBytes)!, measuredPeakTensorBytes: max((m) => m.measuredPeakTensorBytes)! };
  for (const key of ['peakRssBytes', 'peakHeapBytes', 'gpuBytes'] as const) {
    const v = max((m) => m[key]);
    if (v !== undefined) memory[key] = v;
  }
  return memory;
}

function mergedHealth(parts: readonly StrategyResult[], by: string, nonFiniteLikelihood: number | undefined): NumericalHealth | undefined {
  if (parts.some((p) => !p.health)) return undefined;
  const healths = parts.map((p) => p.health!);
  const electrodes = inElectrodeOrder(healths.map((h) => h.electrodes), by);
  const weighted = electrodes.filter((e) => e.nDecodingSpikes > 0);
  const spikes = weighted.reduce((n, e) => n + e.nDecodingSpikes, 0);
  return {
    // the occupancy is the same in every shard; the ground process and the likelihood are sums over them
    nonFiniteOccupancy: Math.max(...healths.map((h) => h.nonFiniteOccupancy)),
    nonFiniteGroundProcess: Math.max(...healths.map((h) => h.nonFiniteGroundProcess)),
    nonFiniteLikelihood: nonFiniteLikelihood ?? Math.max(...healths.map((h) => h.nonFiniteLikelihood)),
    floorShare: spikes > 0 ? weighted.reduce((t, e) => t + e.floorShare * e.nDecodingSpikes, 0) / spikes : 0,
    electrodes,
  };
}

function failureOf(shards: readonly ShardRun[], parts: readonly (StrategyResult | undefined)[], strategy: string): StrategyResult['error'] | undefined {
  const i = parts.findIndex((p) => !p || p.status !== 'ok');
  if (i < 0) return undefined;
  const why = parts[i]?.error?.message ?? `it has no result for ${strategy}`;
  return { name: 'AppError', code: 'RUN_FAILED', message: `${shardName(shards[i]!)}: ${why}` };
}

function mergedStrategy(strategy: StrategyResult['strategy'], shards: readonly ShardRun[], merged: MergedLikelihoods): StrategyResult {
  const parts = shards.map((s) => s.report.strategies.find((x) => x.strategy === strategy));
  const present = parts.filter((p): p is StrategyResult => p !== undefined);
  const slowest = present.reduce((a, b) => ((b.total?.medianMs ?? 0) > (a.total?.medianMs ?? 0) ? b : a));
  const by = shards[0]!.shard.by;
  const result: StrategyResult = {
    strategy,
    resolved: inElectrodeOrder(parts.map((p) => p?.resolved ?? []), by),
    status: 'ok',
    stages: mergedStages(shards, parts, slowest),
    kernels: slowest.kernels,
  };
  const error = failureOf(shards, parts, strategy);
  if (error) Object.assign(result, { status: 'failed', error });
  const phases = { encode: criticalTiming(parts.map((p) => p?.encode)), decode: criticalTiming(parts.map((p) => p?.decode)),
    total: criticalTiming(parts.map((p) => p?.total)), local: criticalTiming(parts.map((p) => p?.local)) };
  for (const [key, stats] of Object.entries(phases)) if (stats) result[key as keyof typeof phases] = stats;
  const memory = maxMemory(present);
  if (memory) result.memory = memory;
  const leaked = present.find((p) => p.leak?.leaked) ?? slowest;
  if (leaked.leak) result.leak = leaked.leak;
  const health = present.length === parts.length ? mergedHealth(present, by, merged.nonFinite.get(strategy)) : undefined;
  if (health) result.health = health;
  const agreement = merged.agreementWithReference.get(strategy);
  if (agreement) result.agreementWithReference = agreement;
  const file = merged.files.get(strategy);
  if (file) result.likelihoodFile = file;
  return result;
}

function mergedLocal(shards: readonly ShardRun[], merged: MergedLikelihoods): Report['local'] {
  const timing = criticalTiming(shards.map((s) => s.report.local?.timing));
  if (!timing) return undefined;
  const file = merged.files.get('local');
  return file ? { timing, likelihoodFile: file } : { timing };
}

export interface MergedReportInput {
  runId: string;
  createdAt: string;
  config: RunConfig;
  shards: readonly ShardRun[];
  timelines: readonly ShardTimeline[];
  likelihoods: MergedLikelihoods;
}

export function mergedReport(input: MergedReportInput): Report {
  const { shards, config, likelihoods } = input;
  const first = shards[0]!.report;
  const dataset = mergedDataset(shards);
  const strategies = first.strategies.map((s) => mergedStrategy(s.strategy, shards, likelihoods));
  const analysis: AnalysisInput = {
    strategies, backend: first.backend, requestedBackend: config.backend, dataset, memoryBudgetBytes: config.memoryBudgetBytes,
    blockSize: config.blockSize ?? dataset.blockSize, encTileSize: config.encTileSize, posTileSize: config.posTileSize,
  };
  const report: Report = {
    schemaVersion: first.schemaVersion,
    tool: first.tool,
    runId: input.runId,
    createdAt: input.createdAt,
    config,
    dataset,
    datasetScale: datasetScale(dataset, PRESET_INFO).sentence,
    backend: first.backend,
    strategies,
    findings: [...shardFindings(input.timelines), ...deriveFindings(analysis)],
    environment: first.environment,
    fingerprint: shards[0]!.fingerprint,
    notApplicable: first.notApplicable,
    status: 'completed',
  };
  if (first.workers !== undefined) report.workers = first.workers;
  if (likelihoods.agreementMatrix) report.agreementMatrix = likelihoods.agreementMatrix;
  const local = mergedLocal(shards, likelihoods);
  if (local) report.local = local;
  const rec = recommend(analysis);
  if (rec) report.recommendation = rec;
  return report;
}

/** The slowest shard by wall time (the first on a tie); undefined when no shard's time is known. */
export function criticalShard(timelines: readonly ShardTimeline[]): ShardTimeline | undefined {
  return timelines.reduce<ShardTimeline | undefined>((a, t) => (t.wallMs !== undefined && (a?.wallMs === undefined || t.wallMs > a.wallMs) ? t : a), undefined);
}

/** The cluster's CPU time, the shards' summed; undefined when a shard's is unknown. */
export function totalCpuMs(timelines: readonly ShardTimeline[]): number | undefined {
  return timelines.every((t) => t.cpuMs !== undefined) ? timelines.reduce((n, t) => n + t.cpuMs!, 0) : undefined;
}

function shardTimeFinding(t: ShardTimeline): Finding {
  const { run } = t;
  const where = t.host ? ` on ${t.host}` : '';
  const wall = t.wallMs === undefined ? 'time not recorded' : `${formatMs(t.wallMs)} in its engine process`;
  const cpu = t.cpuMs === undefined ? '' : `, ${formatMs(t.cpuMs)} CPU`;
  const finding: Finding = {
    id: 'shard-time', severity: 'info',
    message: `${shardName(run)}${where}: ${run.shard.electrodes.length} electrodes (${run.shard.electrodes.join(', ')}), ${wall}${cpu}.`,
  };
  if (t.wallMs !== undefined) finding.value = t.wallMs;
  return finding;
}

function criticalPathFinding(timelines: readonly ShardTimeline[]): Finding[] {
  const slowest = criticalShard(timelines);
  if (!slowest) return [];
  const known = timelines.filter((t) => t.wallMs !== undefined).map((t) => t.wallMs!);
  const fastest = Math.min(...known);
  const uneven = known.length > 1 && fastest < 0.8 * slowest.wallMs!;
  const hint = uneven && slowest.run.shard.by === 'round-robin' ? ' --shard-by spikes balances the shards by spike count.' : '';
  return [{
    id: 'shard-critical-path', severity: 'info', value: slowest.wallMs!,
    message: `critical path: ${shardName(slowest.run)}, ${formatMs(slowest.wallMs!)}; the shards took ${formatMs(fastest)} to ${formatMs(slowest.wallMs!)}.${hint}`,
  }];
}

function cpuFinding(timelines: readonly ShardTimeline[]): Finding[] {
  const cpu = totalCpuMs(timelines);
  if (cpu !== undefined) {
    return [{ id: 'shard-cpu-time', severity: 'info', value: cpu, message: `the ${timelines.length} shards used ${formatMs(cpu)} of CPU time in all (their engine processes, every thread).` }];
  }
  const missing = timelines.filter((t) => t.cpuMs === undefined).map((t) => shardName(t.run));
  return [{ id: 'shard-cpu-time', severity: 'info', message: `the cluster's CPU time is not known: ${missing.join(', ')} recorded none (tracing off, or an older kde-profiler).` }];
}

function clockFindings(timelines: readonly ShardTimeline[]): Finding[] {
  return timelines.filter((t) => t.clock !== 'wall clock mark' && t.records.length > 0).map((t) => ({
    id: 'shard-clock', severity: 'warning' as const,
    message: `${shardName(t.run)} has no wall-clock mark: it sits on the merged timeline at its run's creation time, to the millisecond.`,
  }));
}

export function shardFindings(timelines: readonly ShardTimeline[]): Finding[] {
  return [...criticalPathFinding(timelines), ...cpuFinding(timelines), ...timelines.map(shardTimeFinding), ...clockFindings(timelines)];
}
