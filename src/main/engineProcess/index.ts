/**
 * The engine process: host/ starts engineMain.ts by path and talks engineProtocol messages with
 * it; nothing on the service side imports this folder. Its rooms: run/ (the side of the wire and
 * the profiling run's loop), decode/ (a decode run), session/ (what every run is made of, and the
 * engine's dependencies), measurement/ (how strategies, the local likelihood and the posterior are
 * measured), runFiles/ (the arrays a run writes and reads back), pool/ (the worker threads),
 * posterior/ (the posterior stage, streamed) and external/ (other engines as child processes).
 * What is exported here is for the bench, which drives the real engine in its own process: the
 * engine's dependencies, fit options and the relaxed-SIMD switch. Must not import the service side
 * (host/, service/, cli/, server/, ipc/) or electron.
 */
// by module, past the rooms' doors: the bench takes these without loading the run loop's modules
export { probeAutoStrategy } from './autoProbe/strategyProbe';
export { fitOptionsFor } from './measurement/fitOptions';
export type { EngineDeps } from './session/engineDeps';
export { realEngineDeps } from './session/realDeps';
export { enableRelaxedSimd } from './session/relaxedSimd';
