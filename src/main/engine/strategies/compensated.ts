/**
 * (e) Compensated linear: a max-rescaled single matmul (kde-spec §7e). Each encoding row i gets
 * a_i = max_p logKpos and b_i = max_k logKmark over the block; with c_i = a_i + b_i − log E and
 * C* = max c_i, Σ = (exp(logKmark − b)·exp(c − C*)) · exp(logKpos − a), and log J = log Σ + C*.
 * The position factor is built once per electrode (it does not depend on the block). Where Σ
 * underflows to 0 the result is the LOG_EPS floor — never the repository's LOG_EPS substitution
 * for log J, which lifts such entries above the floor (spec §6). With an encoding tile smaller
 * than E it becomes (e′): the same fold accumulated chunk by chunk with a running scale.
 */
import * as tf from '@tensorflow/tfjs-core';
import { disposeMarks, logKernelDirect, prepareMarks, type PreparedMarks } from '../kernels';
import { COMPENSATED_WEIGHTS_KERNEL, hasWasmKernels, MIN_KERNEL_COLUMNS, type CompensatedWeightsAttrs } from '../simd/wasmKernels';
import { blockRanges, epilogue, forEachBlock, markKernelStage, sliceCols, sliceRows } from './common';
import { finishCompensated, foldCompensated, foldScaledChunk, positionFactor, type CompensatedState } from './online';
import type { ElectrodeContext, EmitBlock, StageTools, Strategy } from './types';

/**
 * Encoding spikes per chunk on the wasm kernel path. Measured on the wasm backend (XNNPACK), one
 * production electrode's (100 × 85 000)·(85 000 × 100) product: 18.7 GFLOP/s as one matmul,
 * 27.7 GFLOP/s as 4 096-wide chunks summed (1 024: 25.2, 16 384: 28.9), since a long inner
 * dimension no longer stays in cache.
 */
const KERNEL_ENC_CHUNK = 4096;

/** Chunks of at least MIN_KERNEL_COLUMNS: a narrower last chunk joins the one before it. */
function kernelChunks(nEnc: number, size: number): [number, number][] {
  const chunks = blockRanges(nEnc, size);
  const last = chunks[chunks.length - 1]!;
  if (chunks.length > 1 && last[1] - last[0] < MIN_KERNEL_COLUMNS) {
    chunks.pop();
    chunks[chunks.length - 1]![1] = nEnc;
  }
  return chunks;
}

interface ChunkOperands {
  bt: tf.Tensor2D;
  rowMax: tf.Tensor1D;
  factor: tf.Tensor2D;
}

/**
 * (e′) with the wasm kernel: per block and encoding chunk one SIMD pass forms the weights
 * exp(logKmark − b)·exp(c − C*_chunk) from the marks by direct differences (no expanded square,
 * so no cancellation), then a matmul per chunk folds them with a running scale.
 */
async function runWithKernel(
  ctx: ElectrodeContext, decMarks: tf.Tensor2D, { stage, span }: StageTools, emit: EmitBlock,
  marks: PreparedMarks, rowMax: tf.Tensor2D, factor: tf.Tensor2D,
): Promise<void> {
  const logE = Math.log(ctx.nEnc);
  const chunks = kernelChunks(ctx.nEnc, ctx.encTileSize < ctx.nEnc ? ctx.encTileSize : KERNEL_ENC_CHUNK);
  const parts: ChunkOperands[] = chunks.map(([c0, c1]) =>
    tf.tidy(() => ({
      bt: sliceCols(marks.scaledT, c0, c1),
      rowMax: tf.reshape(sliceCols(rowMax, c0, c1), [-1]) as tf.Tensor1D,
      factor: chunks.length === 1 ? tf.clone(factor) : sliceRows(factor, c0, c1),
    })),
  );
  const attrs: CompensatedWeightsAttrs = { c: marks.logNorm, logE };
  try {
    await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
      const weights = await stage('mark-kernel', () =>
        tf.tidy(() => {
          const a = tf.mul(sliceRows(decMarks, s0, s1), marks.invStd);
          return parts.map((p) => tf.engine().runKernel(COMPENSATED_WEIGHTS_KERNEL, { a, bt: p.bt, rowMax: p.rowMax }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor[]);
        }),
      );
      const logJ = await stage('reduce', () => {
        let state: CompensatedState | null = null;
        weights.forEach(([w, scale], i) => {
          state = foldScaledChunk(state, w as tf.Tensor2D, scale as tf.Scalar, parts[i]!.factor);
        });
        return finishCompensated(state!);
      });
      tf.dispose(weights);
      const terms = epilogue(ctx, logJ);
      logJ.dispose();
      await emit(s0, terms);
    });
  } finally {
    for (const p of parts) tf.dispose([p.bt, p.rowMax, p.factor]);
  }
}

/** (e) / (e′) on the op graph: the GEMM form of the mark kernel, every backend. */
async function runOpGraph(
  ctx: ElectrodeContext, decMarks: tf.Tensor2D, { stage, span }: StageTools, emit: EmitBlock,
  marks: PreparedMarks, rowMax: tf.Tensor2D, factor: tf.Tensor2D,
): Promise<void> {
  const logE = Math.log(ctx.nEnc);
  const chunks = blockRanges(ctx.nEnc, ctx.encTileSize >= ctx.nEnc ? ctx.nEnc : ctx.encTileSize);
  await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
    const logKmark = await markKernelStage(stage, marks, decMarks, s0, s1);
    const logJ = await stage('reduce', () => {
      let state: CompensatedState | null = null;
      for (const [c0, c1] of chunks) {
        const whole = chunks.length === 1;
        const part = tf.tidy(() => ({
          mark: whole ? tf.clone(logKmark) : sliceCols(logKmark, c0, c1),
          max: whole ? tf.clone(rowMax) : sliceCols(rowMax, c0, c1),
          factor: whole ? tf.clone(factor) : sliceRows(factor, c0, c1),
        }));
        state = foldCompensated(state, part.mark, part.max, part.factor, logE);
        tf.dispose([part.mark, part.max, part.factor]);
      }
      return finishCompensated(state!);
    });
    logKmark.dispose();
    const terms = epilogue(ctx, logJ);
    logJ.dispose();
    await emit(s0, terms);
  });
}

export const compensated: Strategy = {
  async run(ctx, decMarks, tools, emit) {
    const { stage } = tools;
    const { tensors: [rowMax, factor], owned } = await ctx.positionKernel('stabilised factor', async () => {
      const f = await stage('position-kernel', () =>
        tf.tidy(() => positionFactor(logKernelDirect(ctx.encPositions, ctx.centers, ctx.positionStd))),
      );
      return [f.rowMax, f.factor];
    });
    const marks = prepareMarks(ctx.encMarks, ctx.waveformStd);
    try {
      const run = hasWasmKernels() && ctx.nEnc >= MIN_KERNEL_COLUMNS ? runWithKernel : runOpGraph;
      await run(ctx, decMarks, tools, emit, marks, rowMax, factor);
    } finally {
      if (owned) tf.dispose([rowMax, factor]);
      disposeMarks(marks);
    }
  },
};
