/**
 * The real engine, data loader and recorder aggregations behind EngineDeps. Loaded with a dynamic
 * import so that the service and CLI, which import host/, never load tfjs themselves.
 */
import { calibrated } from './calibrationCache';
import type { EngineDeps } from './engineDeps';
import { EnginePool, poolEngineDeps } from '../pool';
import { enableRelaxedSimd } from './relaxedSimd';

export async function realEngineDeps(): Promise<EngineDeps> {
  const [engine, model, data, recorder] = await Promise.all([import('../../engine'), import('../../engine/model'), import('../../data'), import('../../recorder')]);
  enableRelaxedSimd(() => engine.relaxedSimdAvailable());
  const deps: EngineDeps = {
    listBackends: engine.listBackends,
    tfjsVersion: engine.tfjsVersion,
    loadDataset: data.loadDataset,
    initBackend: engine.initBackend,
    initBackendFor: engine.initBackendFor,
    calibrate: (backend, cacheDir, onWarning) => calibrated(backend, () => engine.calibrateBackend(backend), cacheDir, { onWarning }),
    engineMemory: engine.engineMemory,
    fitEncodingModel: engine.fitEncodingModel,
    predictNonlocal: engine.predictNonlocal,
    predictNonlocalWindows: engine.predictNonlocalWindows,
    predictLocal: engine.predictLocal,
    profileKernels: engine.profileKernels,
    openStageTimer: engine.openStageTimer,
    explainFailure: engine.explainBackendFailure,
    strategyOptionsFor: model.strategyOptionsFor,
    aggregateKernels: recorder.aggregateKernels,
    async startWorkers(options) {
      const pool = await EnginePool.start(options);
      return { deps: await poolEngineDeps(deps, pool), stop: () => pool.terminate() };
    },
  };
  return deps;
}
