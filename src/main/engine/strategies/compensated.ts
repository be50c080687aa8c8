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
import { disposeMarks, logKernelDirect, prepareMarks } from '../kernels';
import { blockRanges, epilogue, forEachBlock, markKernelStage, sliceCols, sliceRows } from './common';
import { finishCompensated, foldCompensated, positionFactor, type CompensatedState } from './online';
import type { Strategy } from './types';

export const compensated: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    const { tensors: [rowMax, factor], owned } = await ctx.positionKernel('stabilised factor', async () => {
      const f = await stage('position-kernel', () =>
        tf.tidy(() => positionFactor(logKernelDirect(ctx.encPositions, ctx.centers, ctx.positionStd))),
      );
      return [f.rowMax, f.factor];
    });
    const marks = prepareMarks(ctx.encMarks, ctx.waveformStd);
    const logE = Math.log(ctx.nEnc);
    const chunks = blockRanges(ctx.nEnc, ctx.encTileSize >= ctx.nEnc ? ctx.nEnc : ctx.encTileSize);
    try {
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
    } finally {
      if (owned) tf.dispose([rowMax, factor]);
      disposeMarks(marks);
    }
  },
};
