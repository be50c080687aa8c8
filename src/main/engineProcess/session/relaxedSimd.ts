/**
 * Relaxed SIMD for the engine's WebAssembly kernels (fused multiply-adds in the packed product and
 * in the exp and log polynomials).
 * Electron's V8 and Node 22's take it as standard; Node 20's implements it behind a V8 flag,
 * which this sets for the whole process (V8 flags are per process, so the pool's worker threads
 * see it too) before any backend installs the kernels. Where the flag is unknown or refused the
 * engine installs the plain SIMD builds, which do each multiply-add as a multiply and an add.
 */
import { setFlagsFromString } from 'node:v8';

const RELAXED_SIMD_FLAG = '--experimental-wasm-relaxed-simd';

/** Whether relaxed SIMD is available after this call; `available` asks the WebAssembly engine. */
export function enableRelaxedSimd(available: () => boolean): boolean {
  if (available()) return true;
  setFlagsFromString(RELAXED_SIMD_FLAG);
  return available();
}
