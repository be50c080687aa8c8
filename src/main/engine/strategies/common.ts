/** Pieces shared by several strategies: block slicing and the common epilogue. */
import * as tf from '@tensorflow/tfjs-core';
import { maxFinite, electrodeFlushIsSafe } from '../hostMath';
import { logMarkKernelGemm, type PreparedMarks } from '../gaussian';
import { biasFloor, linearPositionKernel } from '../ops';
import { BLOCK_SPAN } from '../../../shared/traceSpans';
import type { ElectrodeContext, StageFn, StageTools } from './types';

export function blockRanges(total: number, size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 0; s < total; s += size) out.push([s, Math.min(total, s + size)]);
  return out;
}

export function sliceRows(t: tf.Tensor2D, start: number, stop: number): tf.Tensor2D {
  return tf.slice(t, [start, 0], [stop - start, -1]);
}

export function sliceCols(t: tf.Tensor2D, start: number, stop: number): tf.Tensor2D {
  return tf.slice(t, [0, start], [-1, stop - start]);
}

/**
 * ℓ = max(logJ + log μ − log π, LOG_EPS). A −Infinity logJ (an underflowed or empty sum) and a
 * zero-occupancy bin (bias −Infinity) both land exactly on the floor, as in the reference.
 */
export function epilogue(ctx: ElectrodeContext, logJ: tf.Tensor2D): tf.Tensor2D {
  return biasFloor.run(logJ, ctx.bias);
}

/**
 * logsumexp over the encoding axis of logKmark[k,i] + logKpos[i,p] for one block (B × E) and
 * (E × P), position tile by position tile, each tile disposed before the next: (B × P). The
 * (B × E × Tp) temporary is the only large allocation.
 */
export function logSumExpJoint(logKmark: tf.Tensor2D, logKpos: tf.Tensor2D, posTile: number): tf.Tensor2D {
  const nBins = logKpos.shape[1];
  const mark = tf.expandDims(logKmark, 2);
  const parts: tf.Tensor2D[] = [];
  try {
    for (const [p0, p1] of blockRanges(nBins, Math.max(1, posTile))) {
      parts.push(
        tf.tidy(() => {
          const pos = p0 === 0 && p1 === nBins ? logKpos : sliceCols(logKpos, p0, p1);
          return tf.logSumExp(tf.add(mark, tf.expandDims(pos, 0)), 1) as tf.Tensor2D;
        }),
      );
    }
    return parts.length === 1 ? parts[0]! : tf.concat(parts, 1);
  } finally {
    mark.dispose();
    if (parts.length > 1) tf.dispose(parts);
  }
}

/** Runs body for each decoding block [s0, s1) in order, each inside a `block` span
 * whose args say which block and which decoding spikes. */
export async function forEachBlock(
  nDec: number,
  blockSize: number,
  span: StageTools['span'],
  body: (s0: number, s1: number) => Promise<void>,
): Promise<void> {
  const blocks = blockRanges(nDec, blockSize);
  for (let b = 0; b < blocks.length; b++) {
    const [s0, s1] = blocks[b]!;
    await span(BLOCK_SPAN, () => body(s0, s1), { block: b, spikes: s1 - s0, firstSpike: s0 });
  }
}

/** The block's (B × E) mark log-kernel by the GEMM form, as the `mark-kernel` stage. */
export function markKernelStage(stage: StageFn, marks: PreparedMarks, decMarks: tf.Tensor2D, s0: number, s1: number): Promise<tf.Tensor2D> {
  return stage('mark-kernel', () => tf.tidy(() => logMarkKernelGemm(marks, sliceRows(decMarks, s0, s1))));
}

/**
 * The electrode's linear (E × P) position kernel under the key and formula the fit keeps it with
 * (so a kernel the fit kept serves the reference and series strategies), else built now as the
 * `position-kernel` stage; `owned`: the caller frees it.
 */
export function linearPositionKernelOf(ctx: ElectrodeContext, stage: StageFn): Promise<{ tensors: [tf.Tensor2D]; owned: boolean }> {
  return ctx.positionKernel('linear', async (): Promise<[tf.Tensor2D]> => {
    // the fit that keeps this kernel flushes it when the same bound allows
    const flush = electrodeFlushIsSafe(ctx.positionStd, ctx.waveformStd, maxFinite(await ctx.bias.data()));
    const q = ctx.encPositions.shape[1];
    const work = linearPositionKernel.work(await ctx.encPositions.data(), await ctx.centers.data(), q, ctx.positionStd);
    const kernel = await stage('position-kernel', () => {
      const built = linearPositionKernel.run(ctx.encPositions, ctx.centers, ctx.positionStd, flush);
      tf.dispose([built.colMax, built.colSum]);
      return built.kernel;
    }, { work });
    return [kernel];
  });
}

/** Rows `rows` of a row-major host matrix with `cols` columns, packed in that order. */
export function gatherHostRows(src: Float32Array, rows: readonly number[], cols: number): Float32Array {
  const out = new Float32Array(rows.length * cols);
  rows.forEach((k, r) => out.set(src.subarray(k * cols, (k + 1) * cols), r * cols));
  return out;
}
