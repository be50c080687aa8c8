/**
 * The TensorFlow.js backends and what the engine measures of them: choosing and starting one
 * (wasm with the engine's SIMD kernels, cpu, webgpu, tfjs-node), the tensors and bytes it holds,
 * a profiled call's kernels, a calibration of what it reaches on the strategies' operations,
 * stage spans that wait for an asynchronous device instead of timing its dispatch, and stage times
 * on the GPU's own clock for calls that do not wait (stageTimer.ts).
 *
 * Part of the engine: imports tfjs, the engine's other modules, engine/model and src/shared only.
 * The strategies never import this room (architecture/strategies-call-ops): an op chooses its
 * kernel for the backend it runs on.
 */
export { engineMemory, explainBackendFailure, initBackend, listBackends, profileKernels, tfjsVersion } from './backends';
export { calibrateBackend, type CalibrationOptions } from './calibration';
export { openStageTimer, stageClock, untimedStageTimer, type StageTimer } from './stageTimer';
export { makeStageTools } from './sync';
