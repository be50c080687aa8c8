/**
 * Column sums of Gaussian KDE parts: per part of the samples and per point, the largest log kernel
 * and Σ exp(logK − max), each kernel row formed in cache and summed without the (samples × points)
 * kernel in memory. Fused only: where runsFused says no, the caller sums tile by tile on the op
 * graph (logKde.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { KDE_COLUMN_SUMS_KERNEL, MIN_KERNEL_COLUMNS } from '../kernels';
import { fusedKernelRuns, overWidths, runFusedKernelOutputs } from './fusedKernel';

/** Whether the fused kernel takes this many points. */
export function runsFused(nPoints: number): boolean {
  return fusedKernelRuns(KDE_COLUMN_SUMS_KERNEL) && nPoints >= MIN_KERNEL_COLUMNS;
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
