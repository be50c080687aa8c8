/**
 * The engine's WebAssembly modules on a wasm backend: their exports, their instantiation on the
 * backend's own memory (so the kernels read and write tensors where they live, with no copies),
 * and which backends have them. One module per backend: each engine worker thread has its own.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import {
  KDE_KERNELS_PLAIN_WASM_BASE64, KDE_KERNELS_RELAXED_WASM_BASE64, KDE_PRODUCT_PLAIN_WASM_BASE64, KDE_PRODUCT_RELAXED_WASM_BASE64,
} from './kdeKernelsBinary';

/** kdeKernels.wat's exports: byte offsets into the backend's heap, counts and constants */
export interface KernelExports {
  exp(src: number, dst: number, n: number): void;
  log(src: number, dst: number, n: number): void;
  gauss(a: number, bt: number, n: number, m: number, d: number, c: number, dst: number, linear: number): void;
  columnScaledExp(x: number, n: number, m: number, colMax: number, colSum: number, expMax: number, dst: number, partial: number, flush: number): void;
  compensatedWeights(a: number, bt: number, n: number, m: number, d: number, c: number, rowMax: number, logE: number, w: number, flush: number): number;
  seriesTerms(phi: number, w: number, n: number, m: number, f: number, rowOff: number, bias: number, floor: number, dst: number): void;
  seriesFactor(psi: number, kpos: number, e: number, m: number, f: number, dst: number): void;
  expFlushed(src: number, dst: number, count: number, flush: number): void;
  seriesGroundFactor(
    a: number, n: number, q: number, bt: number, m: number, c: number, psi: number, f: number, colMax: number, colSum: number, w: number,
    expMax: number, partial: number, rows: number, tile: number, flush: number, maxGiven: number,
  ): void;
  kdeColumnSums(
    a: number, n: number, q: number, bt: number, m: number, c: number, colMax: number, colSum: number, row: number, shifted: number, partial: number,
    maxGiven: number,
  ): void;
  gridSeriesGroundFactor(
    state: number, n: number, m: number, q: number, floor: number, sums: number, psi: number, f: number, w: number, rows: number, tile: number,
  ): void;
  gridRowsAndSums(state: number, n: number, m: number, q: number, floor: number, sums: number, rows: number): void;
  gridFactorRows(state: number, count: number, m: number, q: number, flush: number, dst: number): void;
  biasFloor(src: number, bias: number, n: number, m: number, floor: number, dst: number): void;
  positionFactorRows(
    a: number, order: number, first: number, count: number, q: number, bt: number, m: number, c: number, dst: number, rowMax: number, flush: number,
  ): void;
  panelFlags(b: number, k: number, n: number, flags: number): number;
  interpolatedTerms(
    a: number, n: number, d: number, spikes: number, chunks: number, nChunks: number, h: number, m: number, off: number, bias: number, floor: number,
    dst: number, dir: number, bounds: number, reach: number, scratch: number,
  ): number;
  packPanels(b: number, k: number, n: number, flags: number, dst: number): void;
}

/** kdeProduct.wat, one of its two builds */
interface ProductExports {
  packedProduct: (
    a: number, packed: number, flags: number, m: number, k: number, n: number, prev: number, alpha: number, beta: number, dst: number, scratch: number,
  ) => void;
}

/** Both modules as installed on one backend. */
export interface WasmKernelModule extends KernelExports, ProductExports {
  /** the product's build has relaxed SIMD's fused multiply-adds */
  fusedMultiplyAdd: boolean;
}

const installedOn = new WeakMap<object, WasmKernelModule>();

function decode(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Whether this WebAssembly engine takes relaxed SIMD (the fused multiply-add builds of the packed
 * product and of the exp and log polynomials). Chromium 114+ and Node 22+ do; Node 20 only behind
 * a V8 flag, which the engine process sets when this says no (engineProcess/session/relaxedSimd.ts).
 */
export function relaxedSimdAvailable(): boolean {
  return WebAssembly.validate(decode(KDE_PRODUCT_RELAXED_WASM_BASE64));
}

function instantiate(backend: BackendWasm): WasmKernelModule {
  const memory = (backend.wasm as unknown as { asm?: { memory?: WebAssembly.Memory } }).asm?.memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    throw new Error('the wasm backend does not expose its memory; the engine kernels cannot be installed');
  }
  const imports = { env: { memory } };
  const fusedMultiplyAdd = relaxedSimdAvailable();
  const kernelBytes = decode(fusedMultiplyAdd ? KDE_KERNELS_RELAXED_WASM_BASE64 : KDE_KERNELS_PLAIN_WASM_BASE64);
  const kernels = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes), imports).exports as unknown as KernelExports;
  const productBytes = decode(fusedMultiplyAdd ? KDE_PRODUCT_RELAXED_WASM_BASE64 : KDE_PRODUCT_PLAIN_WASM_BASE64);
  const product = new WebAssembly.Instance(new WebAssembly.Module(productBytes), imports).exports as unknown as ProductExports;
  return { ...kernels, packedProduct: product.packedProduct, fusedMultiplyAdd };
}

/** The module on this backend, instantiated on first use; `created`: this call instantiated it. */
export function moduleFor(backend: BackendWasm): { module: WasmKernelModule; created: boolean } {
  const known = installedOn.get(backend);
  if (known) return { module: known, created: false };
  const module = instantiate(backend);
  installedOn.set(backend, module);
  return { module, created: true };
}

/** The module installed on this backend, if any. */
export function installedModule(backend: object): WasmKernelModule | undefined {
  return installedOn.get(backend);
}

/** Whether the active backend runs the engine kernels. */
export function hasWasmKernels(): boolean {
  return tf.getBackend() === 'wasm' && installedOn.has(tf.backend());
}

/**
 * Copies a float32 tensor's values into dst (at least t.size long) straight from the wasm backend's
 * heap, without the fresh array a read allocates; false, copying nothing, on any other backend.
 */
export function copyFloat32Into(t: tf.Tensor, dst: Float32Array): boolean {
  if (tf.getBackend() !== 'wasm' || t.dtype !== 'float32' || dst.length < t.size) return false;
  const backend = tf.backend() as BackendWasm;
  const at = backend.getMemoryOffset(t.dataId) / 4;
  dst.set(backend.wasm.HEAPF32.subarray(at, at + t.size));
  return true;
}
