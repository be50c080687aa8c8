/**
 * (f) Streaming position kernel (kde-spec §7f): no (E × P) matrix ever exists. For every block,
 * the encoding spikes are walked in chunks of C and each chunk's position log-kernel (C × P) is
 * computed afresh, then folded: compensated (e′) for D ≤ 8, online logsumexp (d) above. Memory
 * C·P + C·B + B·P (+ B·C·Tp for D > 8); the price is recomputing the position kernel per block.
 * Unlike the repository it does not refuse a tile ≥ E: that electrode is then one chunk.
 */
import * as tf from '@tensorflow/tfjs-core';
import { COMPENSATED_MAX_FEATURES } from '../model';
import { disposeMarks, logKernelDirect, prepareMarks } from '../gaussian';
import { blockRanges, epilogue, forEachBlock, logSumExpJoint, markKernelStage, sliceCols, sliceRows } from './common';
import { positionFactorRows } from '../ops';
import { finishCompensated, foldCompensated, foldLogSumExp, type CompensatedState } from './online';
import type { Strategy } from './types';

export const streaming: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    const marks = prepareMarks(ctx.encMarks, ctx.waveformStd);
    const logE = Math.log(ctx.nEnc);
    const chunks = blockRanges(ctx.nEnc, ctx.encTileSize);
    const useCompensated = ctx.nFeatures <= COMPENSATED_MAX_FEATURES;
    try {
      await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
        const logKmark = await markKernelStage(stage, marks, decMarks, s0, s1);
        let comp: CompensatedState | null = null;
        let lse: tf.Tensor2D | null = null;
        for (const [c0, c1] of chunks) {
          const logKpos = await stage('position-kernel', () =>
            tf.tidy(() => logKernelDirect(sliceRows(ctx.encPositions, c0, c1), ctx.centers, ctx.positionStd)),
          );
          const markChunk = sliceCols(logKmark, c0, c1);
          await stage('reduce', () => {
            if (useCompensated) {
              const { rowMax, factor } = positionFactorRows.fromLogKernel(logKpos);
              comp = foldCompensated(comp, markChunk, rowMax, factor, logE);
              tf.dispose([rowMax, factor]);
              return comp.sum;
            }
            lse = foldLogSumExp(lse, logSumExpJoint(markChunk, logKpos, ctx.posTileSize));
            return lse;
          });
          tf.dispose([logKpos, markChunk]);
        }
        logKmark.dispose();
        const logJ = useCompensated
          ? finishCompensated(comp!)
          : tf.tidy(() => tf.sub(lse!, logE) as tf.Tensor2D);
        if (!useCompensated) lse!.dispose();
        const terms = epilogue(ctx, logJ);
        logJ.dispose();
        await emit(s0, terms);
      });
    } finally {
      disposeMarks(marks);
    }
  },
};
