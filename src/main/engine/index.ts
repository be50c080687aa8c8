/**
 * The clusterless-KDE engine on TensorFlow.js ops: backends, encoding fit, non-local and local
 * predict under the six evaluation strategies of kde-spec §7, and their memory formulas.
 * Imports tfjs and src/shared only: no electron, no fs, no recorder (it reports through
 * EngineProbe).
 */
import type { RunConfig } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import { DEFAULT_BLOCK_SIZE } from './constants';
import type { StrategyOptions } from './types';

export { initBackend, listBackends, tfjsVersion, engineMemory, profileKernels } from './backends';
export { fitEncodingModel, type EncodingModel, type FitOptions } from './fit';
export { predictNonlocal, CancelledError } from './predict';
export { predictLocal } from './local';
export { predictNonlocalWindows, windowBounds, type WindowSummary } from './windows';
export { resolveAuto, DEFAULT_MEMORY_BUDGET_BYTES, type AutoChoice } from './autoStrategy';
export { EPS, LOG_EPS } from './constants';
export { NULL_PROBE } from './types';
export type { EngineProbe, StrategyOptions, ElectrodeSizes, NonlocalResult } from './types';

/** Strategy options from a run's configuration, falling back to the dataset's block size. */
export function strategyOptionsFor(dataset: Dataset, config: RunConfig): StrategyOptions {
  return {
    blockSize: config.blockSize ?? dataset.params.blockSize ?? DEFAULT_BLOCK_SIZE,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
    memoryBudgetBytes: config.memoryBudgetBytes,
  };
}
