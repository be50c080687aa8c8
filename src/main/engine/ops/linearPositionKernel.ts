/**
 * The linear position kernel K[i, p] = exp(logK[i, p]) computed as exp(logK − m_p)·exp(m_p), with
 * m_p the per-bin maximum over spikes, with its column maxima and rescaled column sums (what the
 * ground process needs). The fused kernel forms each row in one pass and, on one-dimensional
 * positions over evenly spaced bins, without an exp per entry (simd/uniformGrid.ts); onGrid says
 * when, and the work count follows.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { FLUSH_BELOW, gridKdeWork, linearPositionKernelWork, type Work } from '../model';
import { LINEAR_POSITION_KERNEL, MIN_KERNEL_COLUMNS } from '../kernels';
import { gridApplies } from '../simd';
import { fusedKernelRuns, overWidths, runFusedKernelOutputs } from './fusedKernel';
import * as gaussianKernelMatrix from './gaussianKernelMatrix';

/** Whether the fused kernel takes this many bins. */
export function runsFused(nBins: number): boolean {
  return fusedKernelRuns(LINEAR_POSITION_KERNEL) && nBins >= MIN_KERNEL_COLUMNS;
}

/**
 * The fit (which needs the rescaled column sums for the ground process) and the strategies build
 * the kernel with this one formula and get the same bits, whichever of them builds it (with
 * `flush` as electrodeFlushIsSafe says, entries below 2^−63·e^{m_p} are 0). Returns the kernel
 * (E × P), m (1 × P) and the rescaled column sums (1 × P).
 */
export function run(
  positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush = false,
): { kernel: tf.Tensor2D; colMax: tf.Tensor; colSum: tf.Tensor } {
  return tf.tidy(() => {
    if (runsFused(centers.shape[0])) {
      const attrs = { c: logNormaliser(std), flush: flush ? FLUSH_BELOW : 0 };
      const [kernel, colMax, colSum] = runFusedKernelOutputs(LINEAR_POSITION_KERNEL, overWidths(positions, centers, std), attrs);
      return { kernel: kernel as tf.Tensor2D, colMax: colMax!, colSum: colSum! };
    }
    const logK = gaussianKernelMatrix.run(positions, centers, std, false);
    const colMax = tf.max(logK, 0);
    const scaled = tf.exp(tf.sub(logK, colMax));
    return { kernel: tf.mul(scaled, tf.exp(colMax)) as tf.Tensor2D, colMax, colSum: tf.sum(scaled, 0) };
  });
}

/**
 * Whether the fused kernels evaluate this one-dimensional Gaussian KDE of samples (n) at points (m),
 * host values, on the points' uniform grid (no exp per entry), judged on the float32 values over
 * the width the kernels read, with the kernels' own test. `rowsShifted`: each row divided by its
 * maximum, as the compensated position factor is (its normaliser cancels).
 */
export function onGrid(samples: ArrayLike<number>, points: ArrayLike<number>, q: number, std: number[], rowsShifted = false): boolean {
  if (!fusedKernelRuns(LINEAR_POSITION_KERNEL) || q !== 1 || points.length < MIN_KERNEL_COLUMNS) return false;
  const inv = Math.fround(1 / std[0]!);
  const overWidth = (v: ArrayLike<number>): Float32Array => {
    const out = new Float32Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = Math.fround(v[i]!) * inv;
    return out;
  };
  return gridApplies(overWidth(samples), overWidth(points), logNormaliser(std), rowsShifted);
}

/** The work of run on these host samples (n × q) and points: the grid recurrence where onGrid says so, else the kernel's exps. */
export function work(samples: ArrayLike<number>, points: ArrayLike<number>, q: number, std: number[]): Work {
  const n = samples.length / q;
  const m = points.length / q;
  return onGrid(samples, points, q, std) ? gridKdeWork(n, m, true) : linearPositionKernelWork(n, m, q);
}
