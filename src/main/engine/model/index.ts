/**
 * The engine's model without the engine: spec constants and defaults, problem sizes and strategy
 * options, the memory formulas of every strategy and the `auto` dispatch, the probe the engine
 * reports through and the one cancellation error of a run. Loads no TensorFlow.js
 * (the engine's own entry, engine/index.ts, does), so the service, the analysis, the CLI and the
 * data loaders import it freely and judge exactly what the engine will run.
 *
 * Must not import tfjs, node, electron, or anything else of the engine.
 */
export * from './constants';
export { CancelledError, isCancellation, throwIfCancelled } from './cancellation';
export { FLUSH_BELOW, FLUSH_TOLERANCE, flushIsSafe, flushThreshold } from './flush';
export { NULL_PROBE, type DeviceSpan, type EngineProbe, type GpuSpanTime } from './probe';
export type { ProbedStrategy, ProblemSizes, StrategyOptions } from './types';
export { strategyOptionsFor } from './strategyOptions';
export { electrodeStrategy, type TileChoice } from './electrodeStrategy';
export { predictedSeconds, resolveFastestStrategy, seriesPredictWork, type SeriesReach } from './autoDispatch';
export { predictedCallMs } from './callTime';
export {
  defaultEncTileSize, estimateDatasetPeak, estimatePeakBytes, resolveNldDispatch, sizesOfElectrode, type AutoChoice, type PeakEstimate,
} from './memoryModel';
export { rooflineOfResult, strategyRoofline, type Calibration, type RooflineInput } from './roofline';
export {
  addWork, gridKdeWork, logKdeWork, logKernelDirectWork, NO_WORK, positionFactorWork, scaleWork, seriesFactorWork, seriesTermsWork, stream, type Work,
} from './opWork';
export { linearMarkKernelWork, linearPositionKernelWork, linearReduceWork, MODELLED_STAGES } from './stageWork';
