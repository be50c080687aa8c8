/**
 * The engine's model without the engine: spec constants and defaults, problem sizes and strategy
 * options, the memory formulas of every strategy and the `auto` dispatch. Loads no TensorFlow.js
 * (the engine's own entry, engine/index.ts, does), so the service, the analysis, the CLI and the
 * data loaders import it freely and judge exactly what the engine will run.
 *
 * Must not import tfjs, node, electron, or anything else of the engine.
 */
export * from './constants';
export type { ProblemSizes, StrategyOptions } from './types';
export { strategyOptionsFor } from './strategyOptions';
export {
  defaultEncTileSize, estimateDatasetPeak, estimatePeakBytes, resolveAutoStrategy, sizesOfElectrode, type AutoChoice, type PeakEstimate,
} from './memoryModel';
