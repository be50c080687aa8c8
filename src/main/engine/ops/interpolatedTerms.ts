/**
 * The series strategy's interpolated handoff for one block (strategies/series/interpolated.ts):
 * mark kernel, Lagrange weights and node kernels in one pass over the plan's layout, never the
 * (E × P) position kernel. Fused only: runsFused says whether the handoff can run at all.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { INTERPOLATED_TERMS_KERNEL, interpolatedSpikeVectorFloats, type InterpolatedTermsAttrs } from '../kernels';
import { fusedKernelRuns, runFusedKernelOutputs } from './fusedKernel';

export type TermsAttrs = InterpolatedTermsAttrs;

/** The plan's tensors in the kernel's layouts (kdeKernels.wat's interpolatedTerms). */
export interface InterpolationTensors {
  spikes: tf.Tensor1D;
  chunks: tf.Tensor2D;
  h: tf.Tensor1D;
  direction: tf.Tensor1D;
  bounds: tf.Tensor1D;
}

export function runsFused(): boolean {
  return fusedKernelRuns(INTERPOLATED_TERMS_KERNEL);
}

/** float32 values per vector of four spikes in the kernel's layout: D mark rows, then 8 Lagrange weight rows. */
export function spikeVectorFloats(nFeatures: number): number {
  return interpolatedSpikeVectorFloats(nFeatures);
}

/** a (B × D) decoding marks over the widths, bias (m) a multiple of 4 bins → [ℓ (B × m), the spike vectors its rows took]. */
export function run(a: tf.Tensor2D, plan: InterpolationTensors, bias: tf.Tensor1D, attrs: TermsAttrs): [tf.Tensor2D, tf.Scalar] {
  const [out, taken] = runFusedKernelOutputs(INTERPOLATED_TERMS_KERNEL, { a, ...plan, bias }, attrs);
  return [out as tf.Tensor2D, taken as tf.Scalar];
}
