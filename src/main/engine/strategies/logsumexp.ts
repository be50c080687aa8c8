/**
 * (b) Log-space logsumexp per decoding spike, vmapped over a block (kde-spec §7b, form b2): the
 * (B × E × P) joint log-kernel is built per block and reduced over encoding spikes. (c), the
 * position-tiled form, is the same computation over column tiles of Tp bins, which bounds the
 * temporary to B × E × Tp.
 */
import * as tf from '@tensorflow/tfjs-core';
import { disposeMarks, logKernelDirect, prepareMarks } from '../gaussian';
import { epilogue, forEachBlock, logSumExpJoint, markKernelStage } from './common';
import type { ElectrodeContext, Strategy } from './types';

function logsumexpStrategy(tileOf: (ctx: ElectrodeContext) => number): Strategy {
  return {
    async run(ctx, decMarks, { stage, span }, emit) {
      const { tensors: [logKpos], owned } = await ctx.positionKernel('log', async () => [
        await stage('position-kernel', () => logKernelDirect(ctx.encPositions, ctx.centers, ctx.positionStd)),
      ]);
      const marks = prepareMarks(ctx.encMarks, ctx.waveformStd);
      const logE = Math.log(Math.max(ctx.nEnc, 1));
      try {
        await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
          const logKmark = await markKernelStage(stage, marks, decMarks, s0, s1);
          const logJ = await stage('reduce', () => logSumExpJoint(logKmark, logKpos, tileOf(ctx)));
          logKmark.dispose();
          const terms = tf.tidy(() => epilogue(ctx, tf.sub(logJ, logE) as tf.Tensor2D));
          logJ.dispose();
          await emit(s0, terms);
        });
      } finally {
        if (owned) logKpos.dispose();
        disposeMarks(marks);
      }
    },
  };
}

export const logsumexp = logsumexpStrategy((ctx) => ctx.nBins);
export const logsumexpTiled = logsumexpStrategy((ctx) => ctx.posTileSize);
