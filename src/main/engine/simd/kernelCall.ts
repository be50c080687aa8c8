/**
 * What every engine kernel does before and around its loop, once: find the module installed on the
 * backend, read the inputs and typed attributes, allocate outputs and scratch on the backend's heap.
 * A kernel is then its shape checks and its calls into the module (one file per kernel group).
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { EngineKernelAttrs, EngineKernelName } from '../kernels';
import { installedModule, type WasmKernelModule } from './wasmModule';

/** One call of an engine kernel on the wasm backend. */
export interface KernelCall<K extends EngineKernelName, I extends string> {
  backend: BackendWasm;
  kernels: WasmKernelModule;
  inputs: Readonly<Record<I, tf.TensorInfo>>;
  attrs: EngineKernelAttrs[K];
  /** a tensor's byte offset in the heap */
  at: (t: tf.TensorInfo) => number;
  /** a new output tensor on the backend */
  output: (shape: number[], dtype?: 'float32' | 'int32') => tf.TensorInfo;
}

/**
 * The kernel config of an engine kernel on the wasm backend. It runs only where the engine's module
 * was installed (installWasmKernels); there is no other fallback.
 */
export function wasmKernel<K extends EngineKernelName, I extends string = string>(
  kernelName: K, body: (call: KernelCall<K, I>) => tf.TensorInfo | tf.TensorInfo[],
): tf.KernelConfig {
  return {
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend: b, attrs }) => {
      const backend = b as BackendWasm;
      const kernels = installedModule(backend);
      if (!kernels) throw new Error(`${kernelName} runs only on a wasm backend the engine kernels were installed on`);
      return body({
        backend,
        kernels,
        inputs: inputs as Record<I, tf.TensorInfo>,
        attrs: attrs as unknown as EngineKernelAttrs[K],
        at: (t) => backend.getMemoryOffset(t.dataId),
        output: (shape, dtype = 'float32') => backend.makeOutput(shape, dtype),
      });
    },
  };
}

/** A tensor's byte offset in the wasm backend's heap. */
export function offsetOf(backend: BackendWasm, t: tf.TensorInfo): number {
  return backend.getMemoryOffset(t.dataId);
}

/** Temporary heap floats for a kernel call, freed however the call ends. */
export function withScratch<T>(backend: BackendWasm, floats: number[], body: (offsets: number[]) => T): T {
  const infos = floats.map((n) => backend.makeOutput([n], 'float32'));
  try {
    return body(infos.map((t) => offsetOf(backend, t)));
  } finally {
    for (const t of infos) backend.disposeData(t.dataId, true);
  }
}

/** withScratch for float64 arrays: byte offsets aligned to 8, so the host can view them as Float64Array. */
export function withFloat64Scratch<T>(backend: BackendWasm, lengths: number[], body: (offsets: number[]) => T): T {
  return withScratch(backend, lengths.map((n) => 2 * n + 1), (offsets) => body(offsets.map((o) => o + (o % 8))));
}
