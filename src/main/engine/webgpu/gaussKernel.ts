/**
 * GAUSS_KERNEL on WebGPU: the Gaussian kernel matrix between samples and points over the widths,
 * log K = c − ½|a_i − b_j|² or K = exp(log K), (n × m), in one dispatch. The op graph it replaces
 * broadcasts the differences to (n × m × d), squares, reduces over d, scales and shifts: five
 * dispatches and d passes of (n × m) memory where this writes the matrix once. Every strategy's
 * position kernel and the reference's and series' mark kernels on webgpu are this matrix.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { GaussAttrs } from '../kernels';
import type { WebGpuBackendLike, WebGpuProgram } from './program';

/** invocations per workgroup side: one entry each */
const SIDE = 16;

/** The widest samples the program is compiled for (a pipeline per width, compiled once per process). */
export const MAX_GAUSS_DIMS = 32;

export function gaussKernelProgram(n: number, m: number, d: number, linear: boolean): WebGpuProgram {
  return {
    outputShape: [n, m],
    shaderKey: `KdeGaussKernel_D${d}_${linear ? 'linear' : 'log'}`,
    dispatchLayout: { x: [1], y: [0] },
    dispatch: [Math.ceil(m / SIDE), Math.ceil(n / SIDE), 1],
    variableNames: ['a', 'bt'],
    uniforms: 'c : f32,',
    workgroupSize: [SIDE, SIDE, 1],
    getUserCode: () => `
      fn main() {
        let j = i32(globalId.x);
        let i = i32(globalId.y);
        let n = uniforms.outShape.x;
        let m = uniforms.outShape.y;
        if (i < n && j < m) {
          var q = 0.0;
          for (var k = 0; k < ${d}; k++) { let u = a[i * ${d} + k] - bt[k * m + j]; q += u * u; }
          let logK = q * -0.5 + uniforms.c;
          result[i * m + j] = ${linear ? 'exp(logK)' : 'logK'};
        }
      }`,
  };
}

export function gaussKernel(backend: WebGpuBackendLike, inputs: Record<string, tf.TensorInfo>, attrs: GaussAttrs): tf.TensorInfo {
  const { a, bt } = inputs as Record<'a' | 'bt', tf.TensorInfo>;
  const [n, d] = a!.shape as [number, number];
  const [db, m] = bt!.shape as [number, number];
  if (db !== d) throw new Error(`KdeGaussKernel: samples ${n} × ${d} against points ${db} × ${m}: the widths must match`);
  return backend.runWebGPUProgram(gaussKernelProgram(n, m, d, attrs.linear), [a!, bt!], 'float32', [{ type: 'float32', data: [attrs.c] }]);
}
