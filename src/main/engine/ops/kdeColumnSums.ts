/**
 * Column sums of Gaussian KDE parts: per part of the samples and per point, the largest log kernel
 * and Σ exp(logK − max), each kernel row formed in cache and summed without the (samples × points)
 * kernel in memory. Fused only: where runsFused says no, the caller sums tile by tile on the op
 * graph (logKde.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { KDE_COLUMN_SUMS_KERNEL, MIN_KERNEL_COLUMNS } from '../kernels';
import { kdeColumnSumsTakes } from '../webgpu';
import { fusedKernelBackend, overWidths, runFusedKernelOutputs } from './fusedKernel';

/**
 * Whether the active backend's kernel takes this many points of q coordinates: wasm's at least
 * MIN_KERNEL_COLUMNS points, WebGPU's any number with q within its compiled widths and the device's workgroup memory.
 */
export function runsFused(nPoints: number, q: number): boolean {
  const on = fusedKernelBackend(KDE_COLUMN_SUMS_KERNEL);
  if (on === null) return false;
  return on === 'webgpu' ? nPoints >= 1 && kdeColumnSumsTakes(q) : nPoints >= MIN_KERNEL_COLUMNS;
}

/**
 * Samples (n × q, the parts' rows one after another, partRows of them each) against points (m × q),
 * both host-side and already uploaded as tensors: [colMax, colSum], (parts × m) each. With
 * `shiftByPeak` every column's maximum is the kernel's peak (see KdeColumnSumsAttrs).
 */
export function run(samples: tf.Tensor2D, points: tf.Tensor2D, std: number[], partRows: number[], shiftByPeak = false): [tf.Tensor2D, tf.Tensor2D] {
  return tf.tidy(() => {
    const attrs = { c: logNormaliser(std), partRows, shiftByPeak };
    const [colMax, colSum] = runFusedKernelOutputs(KDE_COLUMN_SUMS_KERNEL, overWidths(samples, points, std), attrs);
    return [colMax as tf.Tensor2D, colSum as tf.Tensor2D];
  });
}
