/**
 * The compensated strategy's weights for one block and encoding chunk, from the marks by direct
 * differences: exp(logKmark + a − max(logKmark + a)) and that maximum C* less log E, in two SIMD
 * passes (no expanded square, so no cancellation). Fused only: without it the strategy runs its op
 * graph, which forms the weights inside its fold.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { COMPENSATED_WEIGHTS_KERNEL, MIN_KERNEL_COLUMNS, type CompensatedWeightsAttrs } from '../kernels';
import { fusedKernelRuns, runFusedKernelOutputs } from './fusedKernel';

export type WeightsAttrs = CompensatedWeightsAttrs;

/** The fewest encoding spikes the kernel takes in one chunk. */
export const MIN_CHUNK_SPIKES = MIN_KERNEL_COLUMNS;

/** Whether the fused kernel takes an electrode of this many encoding spikes. */
export function runsFused(nEnc: number): boolean {
  return fusedKernelRuns(COMPENSATED_WEIGHTS_KERNEL) && nEnc >= MIN_CHUNK_SPIKES;
}

/** a (B × D) decoding marks over the widths, bt (D × C) a chunk's encoding marks, rowMax (C) its position factor's maxima → [w (B × C), C* (scalar)]. */
export function run(a: tf.Tensor2D, bt: tf.Tensor2D, rowMax: tf.Tensor1D, attrs: WeightsAttrs): [tf.Tensor2D, tf.Scalar] {
  const [w, scale] = runFusedKernelOutputs(COMPENSATED_WEIGHTS_KERNEL, { a, bt, rowMax }, attrs);
  return [w as tf.Tensor2D, scale as tf.Scalar];
}
