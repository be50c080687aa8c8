/**
 * Facts about this machine's engine (backends, versions) and memory estimates before a run.
 */
import { cpus, totalmem } from 'node:os';
import type { MemoryEstimate, SystemInfo } from '../../shared/api';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../shared/config';
import { summarizeDataset } from '../../shared/dataset';
import { estimateDatasetPeak } from '../engine/model';
import { loadDataset } from '../data';
import { probeEngine, type SpawnEngine } from '../host';
import { toolVersion } from './reportBuilder';

let info: Promise<SystemInfo> | undefined;

/**
 * Versions and backends. The backends are probed in a short-lived engine process: this process
 * (Electron's main process in the desktop app) never loads TensorFlow.js or a GPU driver.
 */
export function systemInfo(spawn: SpawnEngine): Promise<SystemInfo> {
  info ??= (async () => {
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
  })();
  // a failed probe is not cached: the next call tries again
  info.catch(() => {
    info = undefined;
  });
  return info;
}

export async function estimateRunMemory(config: RunConfig): Promise<MemoryEstimate[]> {
  const summary = summarizeDataset(await loadDataset(config.data));
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
