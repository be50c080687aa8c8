/**
 * The compensated position factor: per row of a log position kernel its maximum and
 * exp(row − maximum). For chunks of encoding spikes in a given order the fused kernel forms each
 * row straight from its spike's position (a gathered, sliced copy of the positions and the log
 * kernel as a tensor cost more than the factor itself), without an exp per entry on evenly spaced
 * bins; the op graph gather → slice → log kernel → factor → flush gives the same bits.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { FLUSH_BELOW } from '../model';
import { MIN_KERNEL_COLUMNS, POSITION_FACTOR_ROWS_KERNEL } from '../kernels';
import { fusedKernelRuns, overWidths, runFusedKernelOutputs } from './fusedKernel';
import * as gaussianKernelMatrix from './gaussianKernelMatrix';

/** Whether the fused kernel takes this many bins. */
export function runsFused(nBins: number): boolean {
  return fusedKernelRuns(POSITION_FACTOR_ROWS_KERNEL) && nBins >= MIN_KERNEL_COLUMNS;
}

/**
 * The factor of a log position kernel (C × P) on the op graph: P'[i,p] = exp(logKpos[i,p] − a_i)
 * with a_i = max_p logKpos, and the maxima as a row (1 × C) to line up with the (B × C) mark kernel.
 */
export function fromLogKernel(logKpos: tf.Tensor2D): { rowMax: tf.Tensor2D; factor: tf.Tensor2D } {
  return tf.tidy(() => {
    const colMax = tf.max(logKpos, 1, true);
    return {
      rowMax: tf.reshape(colMax, [1, -1]) as tf.Tensor2D,
      factor: tf.exp(tf.sub(logKpos, colMax)) as tf.Tensor2D,
    };
  });
}

/**
 * The factor of each chunk [c0, c1) of the encoding spikes taken in `order` (C × P), with its row
 * maxima as a vector and its entries below 2^−63 set to 0 when `flush`.
 */
export function run(
  positions: tf.Tensor2D, order: tf.Tensor1D, centers: tf.Tensor2D, std: number[], chunks: readonly [number, number][], flush: boolean,
): { rowMax: tf.Tensor1D; factor: tf.Tensor2D }[] {
  return tf.tidy(() => {
    if (runsFused(centers.shape[0])) {
      const { a, bt } = overWidths(positions, centers, std);
      return chunks.map(([first, end]) => {
        const attrs = { first, count: end - first, c: logNormaliser(std), flush: flush ? FLUSH_BELOW : 0 };
        const [factor, rowMax] = runFusedKernelOutputs(POSITION_FACTOR_ROWS_KERNEL, { a, order, bt }, attrs);
        return { factor: factor as tf.Tensor2D, rowMax: rowMax as tf.Tensor1D };
      });
    }
    const sorted = tf.gather(positions, order) as tf.Tensor2D;
    return chunks.map(([first, end]) => {
      const rows = tf.slice(sorted, [first, 0], [end - first, -1]) as tf.Tensor2D;
      const f = fromLogKernel(gaussianKernelMatrix.run(rows, centers, std, false));
      const factor = flush ? tf.where(tf.less(f.factor, FLUSH_BELOW), tf.zerosLike(f.factor), f.factor) : f.factor;
      return { rowMax: tf.reshape(f.rowMax, [-1]) as tf.Tensor1D, factor: factor as tf.Tensor2D };
    });
  });
}
