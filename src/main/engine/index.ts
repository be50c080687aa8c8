/**
 * The clusterless-KDE engine on TensorFlow.js ops: backends, encoding fit, non-local predict (the
 * likelihood's pipeline, likelihood/: plan, executor, ordered sum) and local predict under seven
 * strategies, the six of kde-spec §7 and the engine's own series (strategies/), computed with the
 * fused ops of ops/ (each choosing the engine's SIMD kernels of simd/ or a graph of tf ops).
 * Importing it loads TensorFlow.js;
 * what needs the engine's decisions without its compute (constants, sizes, memory formulas, `auto`
 * dispatch) imports engine/model instead.
 *
 * Imports tfjs, engine/model and src/shared only: no electron, no fs, no recorder (it reports
 * through EngineProbe).
 */
export { calibrateBackend, type CalibrationOptions } from './calibration';
export { initBackend, listBackends, tfjsVersion, engineMemory, profileKernels } from './backends';
export {
  encodingModelOf, fitElectrodeAt, fitEncodingModel, mergeOccupancy, occupancyPartCount, occupancyParts, prepareFit, sumGroundProcess,
  type EncodingModel, type FitContext, type FitOptions, type FittedElectrode,
} from './fit';
export type { KdePart } from './logKde';
export {
  electrodeSpanArgs, electrodeTerms, inThreadExecutor, OrderedTermSum, planNonlocal, predictNonlocal, predictNonlocalWindows, predictNonlocalWindowsWith,
  predictNonlocalWith, runNonlocalPlan, seriesReachOf, windowBounds,
  type ElectrodeMarks, type ElectrodePlan, type NonlocalExecutor, type NonlocalPlan, type PlannedTerms, type RunningTerms, type TermListener,
  type TermReader, type TermSink,
} from './likelihood';
export { CancelledError } from './model';
export { copyFloat32Into, relaxedSimdAvailable } from './simd';
export { addLocalTerms, localTerms, predictLocal, type LocalElectrodeTerms } from './local';
export { NULL_PROBE } from './types';
export type { BatchTime, EngineProbe, NonlocalResult, PredictOptions, WindowSummary } from './types';
