/**
 * The strategies' epilogue: max(logJ + bias, LOG_EPS) per bin, bias (P,) = log μ − log π. A
 * −Infinity logJ (an underflowed or empty sum) and a zero-occupancy bin (bias −Infinity) both land
 * exactly on the floor. The fused kernel does the same two float32 operations in one pass.
 */
import * as tf from '@tensorflow/tfjs-core';
import { LOG_EPS } from '../model';
import { BIAS_FLOOR_KERNEL } from '../kernels';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

export function run(logJ: tf.Tensor2D, bias: tf.Tensor1D): tf.Tensor2D {
  if (fusedKernelRuns(BIAS_FLOOR_KERNEL) && logJ.dtype === 'float32' && bias.dtype === 'float32') {
    return runFusedKernel(BIAS_FLOOR_KERNEL, { x: logJ, bias }, { floor: LOG_EPS }) as tf.Tensor2D;
  }
  return tf.tidy(() => tf.maximum(tf.add(logJ, bias), LOG_EPS) as tf.Tensor2D);
}
