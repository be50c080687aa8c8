/**
 * The engine process's pool of worker threads: one backend each, electrodes assigned largest
 * first, term blocks summed in electrode order so the likelihood does not depend on the number of
 * workers. The workers start from poolWorker.ts by path (a module worker), not through this file.
 * Runs inside the engine process only: must not import the service side (host/, service/, cli/,
 * server/, ipc/) or electron.
 */
export { EnginePool, type PoolOptions, type WorkerFit } from './enginePool';
export { poolEngineDeps } from './poolDeps';
export { runWorkers, workerCount } from './workerCount';
