/**
 * (d) Encoding-spike chunking with online logsumexp (kde-spec §7d), chunk-major: each chunk's
 * position log-kernel (C × P) is computed once and folded into running logsumexp accumulators of
 * every block, so neither the (E × P) kernel nor a (B × E × P) temporary ever exists (the inner
 * reduction is position-tiled when Tp < P). The accumulators for the electrode's S decoding
 * spikes (S × P) stay on the device until the last chunk; streaming trades that for recomputing.
 */
import * as tf from '@tensorflow/tfjs-core';
import { disposeMarks, logKernelDirect, prepareMarks, type PreparedMarks } from '../gaussian';
import { blockRanges, epilogue, logSumExpJoint, markKernelStage, sliceRows } from './common';
import { foldLogSumExp } from './online';
import { BLOCK_SPAN, CHUNK_SPAN } from '../../../shared/traceSpans';
import type { Strategy } from './types';

export const chunked: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    const blocks = blockRanges(decMarks.shape[0], ctx.blockSize);
    const acc: (tf.Tensor2D | null)[] = blocks.map(() => null);
    const logE = Math.log(ctx.nEnc);
    try {
      const chunks = blockRanges(ctx.nEnc, ctx.encTileSize);
      for (let c = 0; c < chunks.length; c++) {
        const [c0, c1] = chunks[c]!;
        await span(CHUNK_SPAN, () => foldChunk(c0, c1), { chunk: c, encodingSpikes: c1 - c0, firstEncodingSpike: c0 });
      }
      for (let b = 0; b < blocks.length; b++) {
        const terms = tf.tidy(() => epilogue(ctx, tf.sub(acc[b]!, logE) as tf.Tensor2D));
        acc[b]!.dispose();
        acc[b] = null;
        await span(BLOCK_SPAN, () => emit(blocks[b]![0], terms), { block: b, spikes: blocks[b]![1] - blocks[b]![0], firstSpike: blocks[b]![0] });
      }
    } finally {
      tf.dispose(acc.filter((t): t is tf.Tensor2D => t !== null));
    }

    async function foldChunk(c0: number, c1: number): Promise<void> {
      const logKpos = await stage('position-kernel', () =>
        tf.tidy(() => logKernelDirect(sliceRows(ctx.encPositions, c0, c1), ctx.centers, ctx.positionStd)),
      );
      const encChunk = sliceRows(ctx.encMarks, c0, c1);
      const marks: PreparedMarks = prepareMarks(encChunk, ctx.waveformStd);
      encChunk.dispose();
      try {
        for (let b = 0; b < blocks.length; b++) {
          const [s0, s1] = blocks[b]!;
          const logKmark = await markKernelStage(stage, marks, decMarks, s0, s1);
          acc[b] = await stage('reduce', () =>
            foldLogSumExp(acc[b] ?? null, logSumExpJoint(logKmark, logKpos, ctx.posTileSize)),
          );
          logKmark.dispose();
        }
      } finally {
        logKpos.dispose();
        disposeMarks(marks);
      }
    }
  },
};
