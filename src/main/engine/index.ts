/**
 * The clusterless-KDE engine on TensorFlow.js ops: backends, encoding fit, non-local and local
 * predict under the six evaluation strategies of kde-spec §7. Importing it loads TensorFlow.js;
 * what needs the engine's decisions without its compute (constants, sizes, memory formulas, `auto`
 * dispatch) imports engine/model instead.
 *
 * Imports tfjs, engine/model and src/shared only: no electron, no fs, no recorder (it reports
 * through EngineProbe).
 */
export { initBackend, listBackends, tfjsVersion, engineMemory, profileKernels } from './backends';
export { fitEncodingModel, type EncodingModel, type FitOptions } from './fit';
export { predictNonlocal, CancelledError } from './predict';
export { predictLocal } from './local';
export { predictNonlocalWindows, windowBounds, type WindowSummary } from './windows';
export { NULL_PROBE } from './types';
export type { EngineProbe, NonlocalResult } from './types';
