/**
 * Facts about this machine's engine (backends, versions) and memory estimates before a run, made
 * from the dataset's summary (kept by DatasetSummaryCache), never from reloading the data: the
 * strategies' by engine/model's formulas, the posterior stage's by engine/posterior's.
 */
import { cpus, totalmem } from 'node:os';
import type { PosteriorMemoryEstimate, RunMemoryEstimate, SystemInfo } from '../../../shared/api';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { DEFAULT_ROWS_PER_WINDOW, estimateDatasetPeak } from '../../engine/model';
import { posteriorStageEstimateOfSummary, type PosteriorStageAsk } from '../../engine/posterior';
import { probeEngine, type SpawnEngine } from '../../host';
import { DatasetSummaryCache } from '../datasets';
import { toolVersion } from '../report';

/**
 * Versions and backends, asked once per service. The backends are probed in a short-lived engine
 * process: this process (Electron's main process in the desktop app) never loads TensorFlow.js or a
 * GPU driver. The answer belongs to the service's own engine: two services in one process (a test's
 * stand-in engine beside a real one) each probe theirs.
 */
export class SystemInfoCache {
  private info: Promise<SystemInfo> | undefined;

  constructor(private readonly spawn: SpawnEngine) {}

  get(): Promise<SystemInfo> {
    this.info ??= probeSystem(this.spawn);
    // a failed probe is not kept: the next call tries again
    this.info.catch(() => {
      this.info = undefined;
    });
    return this.info;
  }
}

async function probeSystem(spawn: SpawnEngine): Promise<SystemInfo> {
  const probe = await probeEngine(spawn);
  return {
    version: toolVersion(),
    tfjsVersion: probe.tfjsVersion,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    totalMemoryBytes: totalmem(),
    backends: probe.backends,
    defaultBackend: DEFAULT_RUN_CONFIG.backend,
  };
}

/**
 * A run's memory before it starts: each strategy's peak device memory, and where the run ends with
 * a posterior, the stage's host memory for each method it times, in windows of a decode's default
 * rows (what a profiling run's stage streams). `summaries` is the service's cache (a caller without
 * one summarizes once).
 */
export async function estimateRunMemory(config: RunConfig, summaries = new DatasetSummaryCache()): Promise<RunMemoryEstimate> {
  const summary = await summaries.summaryOf(config.data);
  const tiles = {
    blockSize: config.blockSize ?? summary.blockSize,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
    memoryBudgetBytes: config.memoryBudgetBytes,
  };
  const strategies = config.strategies.map((s) => {
    const est = estimateDatasetPeak(s, summary, tiles);
    return { strategy: est.strategy, peakBytes: est.deviceBytes, formula: est.formula };
  });
  const asked = config.posterior;
  const posterior = asked ? asked.methods.flatMap((method) => posteriorEstimateOf(summary, { model: asked.model, method, rowsPerWindow: DEFAULT_ROWS_PER_WINDOW })) : [];
  return { strategies, posterior };
}

/** The posterior stage's row of the estimate (posteriorWork.ts's formula); none where the data cannot have a posterior. */
function posteriorEstimateOf(summary: DatasetSummary, ask: PosteriorStageAsk): PosteriorMemoryEstimate[] {
  const est = posteriorStageEstimateOfSummary(ask, summary);
  if (!est) return [];
  return [{ model: ask.model, method: ask.method, rowsPerWindow: Math.min(ask.rowsPerWindow, summary.nTime), peakBytes: est.bytes, formula: est.formula }];
}
