/** exp with results below `flush` dropped: the exp the engine's KDE, position-factor and weights kernels run. Fused only. */
import type * as tf from '@tensorflow/tfjs-core';
import { EXP_FLUSHED_KERNEL } from '../kernels';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

export function runsFused(): boolean {
  return fusedKernelRuns(EXP_FLUSHED_KERNEL);
}

/** x ≤ 0, at least 4 float32 values. */
export function run(x: tf.Tensor, flush: number): tf.Tensor {
  return runFusedKernel(EXP_FLUSHED_KERNEL, { x }, { flush });
}
