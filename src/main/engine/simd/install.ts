/**
 * Installs the engine's SIMD kernels into the wasm backend: its Exp and Log for float32 tensors,
 * and every engine kernel under its own name (kernelNames.ts). Installed once per backend; the op
 * graph every other backend runs stays the definition, and the parity tests hold both to the spec.
 * A new kernel is a file exporting its wasmKernel config, listed here.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { compensatedWeightsKernel, positionFactorRowsKernel } from './compensatedKernels';
import { biasFloorKernel, expFlushedKernel, unaryKernel } from './elementwiseKernels';
import { columnScaledExpKernel, gaussKernel, linearPositionKernel } from './gaussKernels';
import { interpolatedTermsKernel } from './interpolatedTerms';
import { kdeColumnSumsKernel } from './kdeColumnSums';
import { GAUSS_KERNEL } from '../kernels';
import { packPanelsKernel, scaledChunkProductKernel } from './packedProduct';
import { seriesFactorKernel, seriesGroundFactorKernel, seriesTermsKernel } from './seriesKernels';
import { moduleFor } from './wasmModule';

const ENGINE_KERNELS: readonly tf.KernelConfig[] = [
  gaussKernel, columnScaledExpKernel, linearPositionKernel, compensatedWeightsKernel, seriesTermsKernel, seriesFactorKernel,
  seriesGroundFactorKernel, expFlushedKernel, positionFactorRowsKernel, kdeColumnSumsKernel, packPanelsKernel, biasFloorKernel,
  scaledChunkProductKernel, interpolatedTermsKernel,
];

function replaceKernel(name: string, kernelFunc: (original: tf.KernelConfig) => tf.KernelFunc): void {
  const original = tf.getKernel(name, 'wasm');
  if (!original) throw new Error(`the wasm backend has no ${name} kernel to replace`);
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc: kernelFunc(original) });
}

/**
 * Installs the kernels on the active wasm backend (a no-op when they already are). Call after
 * tf.setBackend('wasm') has resolved: the module needs the backend's memory. Says whether the
 * packed product has fused multiply-adds.
 */
export function installWasmKernels(): { fusedMultiplyAdd: boolean } {
  const { module, created } = moduleFor(tf.backend() as BackendWasm);
  if (!created) return { fusedMultiplyAdd: module.fusedMultiplyAdd };
  // the registry is per thread, not per backend: register once, the kernels look their module up
  if (!tf.getKernel(GAUSS_KERNEL, 'wasm')) {
    replaceKernel('Exp', (original) => unaryKernel(original, 'exp', Math.exp));
    replaceKernel('Log', (original) => unaryKernel(original, 'log', Math.log));
    for (const config of ENGINE_KERNELS) tf.registerKernel(config);
  }
  return { fusedMultiplyAdd: module.fusedMultiplyAdd };
}
