/**
 * ℓ for one block's series rows: max(log(max(Φ·W, 0)) + offset + bias, LOG_EPS), bias (P,). The
 * fused kernel takes Φ narrower than W is tall (W's rows past it are the zero padding), so the
 * padding needs no product there.
 */
import * as tf from '@tensorflow/tfjs-core';
import { LOG_EPS, seriesTermsWork, type Work } from '../model';
import { MIN_KERNEL_COLUMNS, SERIES_TERMS_KERNEL } from '../kernels';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

/** Whether the fused kernel runs for this many bins (and so reads only Φ's own features of W). */
export function runsFused(nBins: number): boolean {
  return fusedKernelRuns(SERIES_TERMS_KERNEL) && nBins >= MIN_KERNEL_COLUMNS;
}

export function run(bias: tf.Tensor1D, phi: tf.Tensor2D, w: tf.Tensor2D, rowOff: tf.Tensor1D): tf.Tensor2D {
  if (runsFused(w.shape[1])) return runFusedKernel(SERIES_TERMS_KERNEL, { phi, w, rowOff, bias }, { floor: LOG_EPS }) as tf.Tensor2D;
  return tf.tidy(() => {
    // a sum that rounding left ≤ 0 is an underflowed one: −Infinity, so the floor (the epilogue's order)
    const logJ = tf.add(tf.log(tf.relu(tf.matMul(phi, w))), tf.reshape(rowOff, [-1, 1]));
    return tf.maximum(tf.add(logJ, bias), LOG_EPS) as tf.Tensor2D;
  });
}

/** The work of run for b rows of F features over P bins. */
export function work(rows: number, nFeatures: number, nBins: number): Work {
  return seriesTermsWork(rows, nFeatures, nBins);
}
