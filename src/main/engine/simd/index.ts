/**
 * The engine's own WebAssembly SIMD kernels for the wasm backend: the modules (kdeKernels.wat with
 * its parts in kdeKernels/, kdeProduct.wat and their generated binaries) implementing the names of
 * engine/kernels, one file per kernel group, and the installer that registers them as TensorFlow.js kernels.
 * The evenly-spaced-grid recurrence (uniformGrid.ts) decides where a row needs no exp per entry.
 *
 * Imported by engine/ops (which choose when a kernel runs), backends/ (which installs them),
 * likelihoodSum.ts (likelihoodSum.wat, its own module) and the engine's entry; never by a strategy. Imports tfjs, the wasm backend's types, engine/kernels and itself only:
 * no other part of the engine, no node, no electron.
 */
export { installWasmKernels } from './install';
export { copyFloat32Into, hasWasmKernels, relaxedSimdAvailable } from './wasmModule';
export { gridApplies } from './uniformGrid';
export { LIKELIHOOD_SUM_WASM_BASE64 } from './kdeKernelsBinary';
