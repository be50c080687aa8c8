/**
 * Facts about this machine's engine (backends, versions) and memory estimates before a run, made
 * from the dataset's summary (kept by DatasetSummaryCache), never from reloading the data.
 */
import { cpus, totalmem } from 'node:os';
import type { MemoryEstimate, SystemInfo } from '../../../shared/api';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../../shared/config';
import { estimateDatasetPeak } from '../../engine/model';
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

/** Peak device memory per strategy; `summaries` is the service's cache (a caller without one summarizes once). */
export async function estimateRunMemory(config: RunConfig, summaries = new DatasetSummaryCache()): Promise<MemoryEstimate[]> {
  const summary = await summaries.summaryOf(config.data);
  const tiles = {
    blockSize: config.blockSize ?? summary.blockSize,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
    memoryBudgetBytes: config.memoryBudgetBytes,
  };
  return config.strategies.map((s) => {
    const est = estimateDatasetPeak(s, summary, tiles);
    return { strategy: est.strategy, peakBytes: est.deviceBytes, formula: est.formula };
  });
}
