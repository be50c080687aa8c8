/**
 * What every run in the engine process is made of, whichever loop runs it: the engine's
 * dependencies as one injectable object (engineDeps.ts; realDeps.ts loads the real engine, data
 * loader and recorder, with the backend's calibration cached on disk), the run session (the
 * recorder and the probe every span goes through, the memory sampler, progress, cancel, the one
 * way a run ends), and the process's settings made before TensorFlow.js computes: priority, TF32,
 * relaxed SIMD.
 *
 * Part of the engine process. Of its rooms it imports measurement/ (the span collector, the
 * recorder's shape) and pool/, never run/ or decode/, which start sessions.
 */
export { calibrated } from './calibrationCache';
export type { EngineDeps, FittedModel, KernelProfile, WindowListener } from './engineDeps';
export { lowerPriority, nicenessOf } from './enginePriority';
export { realEngineDeps } from './realDeps';
export { enableRelaxedSimd } from './relaxedSimd';
export { startRunSession, type EngineRun, type RunInputs, type RunSession } from './runSession';
