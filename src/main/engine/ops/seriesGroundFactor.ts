/**
 * What a fit for series needs from an electrode's linear position kernel, without the kernel: its
 * column maxima and sums (the ground process, as linearPositionKernel gives them) and the series
 * factor (as seriesFactor gives it on that kernel), bit for bit, in one pass of the fused kernel
 * over cache-sized tiles of kernel rows. Fused only: elsewhere the fit builds the kernel, then the
 * factor.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { FLUSH_BELOW } from '../model';
import { MIN_KERNEL_COLUMNS, SERIES_GROUND_FACTOR_KERNEL } from '../kernels';
import { fusedKernelRuns, overWidths, runFusedKernelOutputs } from './fusedKernel';

/** Whether the fused kernel takes this many bins. */
export function runsFused(nBins: number): boolean {
  return fusedKernelRuns(SERIES_GROUND_FACTOR_KERNEL) && nBins >= MIN_KERNEL_COLUMNS && nBins % 4 === 0;
}

/** Positions (E × Q), bin centres (P × Q) and the encoding features Ψ (E × F), at least one position. */
export function run(
  positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush: boolean, psi: tf.Tensor2D,
): { colMax: tf.Tensor1D; colSum: tf.Tensor1D; factor: tf.Tensor2D } {
  const [colMax, colSum, factor] = tf.tidy(() => {
    const { a, bt } = overWidths(positions, centers, std);
    return runFusedKernelOutputs(SERIES_GROUND_FACTOR_KERNEL, { a, bt, psi }, { c: logNormaliser(std), flush: flush ? FLUSH_BELOW : 0 });
  });
  return { colMax: colMax as tf.Tensor1D, colSum: colSum as tf.Tensor1D, factor: factor as tf.Tensor2D };
}
