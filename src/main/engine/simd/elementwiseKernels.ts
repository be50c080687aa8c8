/**
 * Elementwise kernels: the backend's Exp and Log replaced by SIMD loops for float32 tensors, the
 * flushed exp, and the strategies' bias-and-floor epilogue in one pass.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { offsetOf, wasmKernel } from './kernelCall';
import { BIAS_FLOOR_KERNEL, EXP_FLUSHED_KERNEL, MIN_KERNEL_COLUMNS } from '../kernels';
import { installedModule } from './wasmModule';

/** below this many elements the SIMD loops cannot form one vector; plain JS does those */
const LANES = MIN_KERNEL_COLUMNS;

/** A float32 unary kernel from a SIMD loop; other dtypes go to the backend's own kernel. */
export function unaryKernel(original: tf.KernelConfig, simd: 'exp' | 'log', scalar: (x: number) => number): tf.KernelFunc {
  return (args) => {
    const x = args.inputs.x!;
    const backend = args.backend as BackendWasm;
    const kernels = installedModule(backend);
    if (x.dtype !== 'float32' || !kernels) return original.kernelFunc(args);
    const out = backend.makeOutput(x.shape, 'float32');
    const n = tf.util.sizeFromShape(x.shape);
    const src = offsetOf(backend, x);
    const dst = offsetOf(backend, out);
    if (n >= LANES) kernels[simd](src, dst, n);
    else {
      // the heap view is fetched after the allocation, which may have grown the memory
      const heap = backend.wasm.HEAPF32;
      for (let i = 0; i < n; i++) heap[dst / 4 + i] = scalar(heap[src / 4 + i]!);
    }
    return out;
  };
}

export const expFlushedKernel = wasmKernel<typeof EXP_FLUSHED_KERNEL, 'x'>(EXP_FLUSHED_KERNEL, ({ kernels, inputs: { x }, attrs, at, output }) => {
  const n = tf.util.sizeFromShape(x.shape);
  if (x.dtype !== 'float32' || n < LANES) throw new Error(`${EXP_FLUSHED_KERNEL} takes at least ${LANES} float32 values, got ${n} ${x.dtype}`);
  const out = output(x.shape);
  kernels.expFlushed(at(x), at(out), n, attrs.flush);
  return out;
});

export const biasFloorKernel = wasmKernel<typeof BIAS_FLOOR_KERNEL, 'x' | 'bias'>(BIAS_FLOOR_KERNEL, ({ kernels, inputs: { x, bias }, attrs, at, output }) => {
  const [n, m] = x.shape as [number, number];
  if (x.shape.length !== 2 || bias.shape.length !== 1 || bias.shape[0] !== m || x.dtype !== 'float32' || bias.dtype !== 'float32') {
    throw new Error(`${BIAS_FLOOR_KERNEL}: values ${x.shape.join(' × ')} (${x.dtype}), bias ${bias.shape.join(' × ')} (${bias.dtype}): expected float32 rows and a bias per column`);
  }
  const out = output([n, m]);
  if (n > 0 && m > 0) kernels.biasFloor(at(x), at(bias), n, m, attrs.floor, at(out));
  return out;
});
