/** The series factor W = Ψᵀ·Kpos (F × P) of an electrode, F a multiple of 4 (the fused kernel takes four features at a time). */
import * as tf from '@tensorflow/tfjs-core';
import { seriesFactorWork, type Work } from '../model';
import { MIN_KERNEL_COLUMNS, SERIES_FACTOR_KERNEL } from '../kernels';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

/** psi (E × F), kpos (E × P) → (F × P). */
export function run(psi: tf.Tensor2D, kpos: tf.Tensor2D): tf.Tensor2D {
  if (fusedKernelRuns(SERIES_FACTOR_KERNEL) && kpos.shape[1] >= MIN_KERNEL_COLUMNS) {
    return runFusedKernel(SERIES_FACTOR_KERNEL, { psi, kpos }, {}) as tf.Tensor2D;
  }
  // Kposᵀ·Ψ, then the small transpose: a matmul's right operand is packed per new tensor on some
  // backends, which for the (E × P) kernel would cost more than the product
  return tf.tidy(() => tf.transpose(tf.matMul(tf.transpose(kpos), psi)) as tf.Tensor2D);
}

/** The work of run for F features, E encoding spikes and P bins. */
export function work(nFeatures: number, nEnc: number, nBins: number): Work {
  return seriesFactorWork(nFeatures, nEnc, nBins);
}
