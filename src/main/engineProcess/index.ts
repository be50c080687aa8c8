/**
 * The engine process: host/ starts engineMain.ts by path and talks engineProtocol messages with
 * it; nothing on the service side imports this folder. What is exported here is for the bench,
 * which drives the real engine in its own process: the engine's dependencies, fit options and the
 * relaxed-SIMD switch. Must not import the service side (host/, service/, cli/, server/, ipc/) or
 * electron.
 */
export type { EngineDeps } from './engineDeps';
export { fitOptionsFor } from './fitOptions';
export { realEngineDeps } from './realDeps';
export { enableRelaxedSimd } from './relaxedSimd';
