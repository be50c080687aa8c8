/**
 * The clusterless-KDE engine on TensorFlow.js ops, in rooms: the backends and what the engine
 * measures of them (backends/), the encoding fit (fit/), non-local predict (the likelihood's
 * pipeline, likelihood/: plan, executor, ordered sum) and local predict (local/) under seven
 * strategies, the six of kde-spec §7 and the engine's own series (strategies/), computed with the
 * Gaussian kernels of gaussian/ and the fused ops of ops/ (each choosing the engine's SIMD kernels
 * of simd/ or a graph of tf ops), on the host arithmetic of hostMath/. What every room reports
 * through and returns (EngineProbe, PredictOptions, the results) is types.ts, beside this door.
 * Importing it loads TensorFlow.js;
 * what needs the engine's decisions without its compute (constants, sizes, memory formulas, `auto`
 * dispatch) imports engine/model instead, and the posterior's formulas engine/posterior.
 *
 * Imports tfjs, engine/model and src/shared only: no electron, no fs, no recorder (it reports
 * through EngineProbe). The rooms import each other through their index.ts and never this file,
 * which imports them.
 */
export { initBackendFor, type ChoiceContext } from './backendChoice';
export {
  calibrateBackend, engineMemory, explainBackendFailure, initBackend, listBackends, openStageTimer, profileKernels, stageClock, tfjsVersion, untimedStageTimer,
  type CalibrationOptions, type StageTimer,
} from './backends';
export {
  encodingModelOf, fitElectrodesAt, fitEncodingModel, interpolatePosition, mergeOccupancy, occupancyPartCount, occupancyParts, prepareFit, sumGroundProcess,
  type EncodingModel, type FitContext, type FitOptions, type FittedElectrode,
} from './fit';
export type { KdePart } from './gaussian';
export {
  electrodeSpanArgs, electrodeTerms, inThreadExecutor, OrderedTermSum, planNonlocal, predictNonlocal, predictNonlocalWindows, predictNonlocalWindowsWith,
  predictNonlocalWith, runNonlocalPlan, seriesReachOf, windowBounds,
  type ElectrodeMarks, type ElectrodePlan, type NonlocalExecutor, type NonlocalPlan, type PlannedTerms, type RunningTerms, type TermListener,
  type TermReader, type TermSink,
} from './likelihood';
export { CancelledError, type GpuSpanTime } from './model';
export { copyFloat32Into, relaxedSimdAvailable } from './simd';
export { addLocalTerms, localTerms, predictLocal, type LocalElectrodeTerms } from './local';
export { NULL_PROBE } from './types';
export { activitySince, gpuActivity, type GpuActivity } from './webgpu';
export type { BatchTime, EngineProbe, NonlocalResult, PredictOptions, WindowSummary } from './types';
