/**
 * Worker threads on the project's own modules, from source and from the Electron bundle: the NWB
 * inspection worker (data/) and the engine pool (engineProcess/pool/) start theirs here. Node only:
 * must not import electron, tfjs, the engine or any other folder of src/main.
 */
export { moduleWorkerEntry, startModuleWorker } from './moduleWorker';
