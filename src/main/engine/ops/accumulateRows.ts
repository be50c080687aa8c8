/**
 * A block of spike terms summed into a window's rows on the device (ACCUMULATE_ROWS_KERNEL), so a
 * window's likelihood is read back once instead of each block's terms. A fused-only op: the caller
 * asks runsFused first; elsewhere each block's terms go to the host's float64 sum as before.
 */
import * as tf from '@tensorflow/tfjs-core';
import { ACCUMULATE_ROWS_KERNEL, type AccumulateRowsAttrs } from '../kernels';
import { accumulateRowsTakes } from '../webgpu';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

export type Attrs = AccumulateRowsAttrs;

/** Whether the active backend keeps an accumulator of accRows × nBins on its device within maxBytes. */
export function runsFused(accRows: number, nBins: number, maxBytes: number): boolean {
  return fusedKernelRuns(ACCUMULATE_ROWS_KERNEL) && accumulateRowsTakes(accRows, nBins, maxBytes);
}

/** acc with the block's terms added; acc, terms, offsets and order stay the caller's. */
export function run(acc: tf.Tensor2D, terms: tf.Tensor2D, offsets: tf.Tensor1D, order: tf.Tensor1D, attrs: Attrs): tf.Tensor2D {
  return runFusedKernel(ACCUMULATE_ROWS_KERNEL, { acc, terms, offsets, order }, attrs) as tf.Tensor2D;
}
