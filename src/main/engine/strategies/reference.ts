/**
 * (a) Linear-space reference (kde-spec §7a, §4.2): Kpos = exp(logKpos) once per electrode, the
 * mark kernel (B × E) per block by direct differences, J = Kmark·Kpos / E as one matmul, then the log
 * with the LOG_EPS floor. An underflowed J is exactly the floor, as in the linear file.
 */
import * as tf from '@tensorflow/tfjs-core';
import { kernelDirect } from '../kernels';
import { epilogue, forEachBlock, linearPositionKernelOf, sliceRows } from './common';
import type { Strategy } from './types';

export const reference: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    // the fit may have kept this kernel (it computes the ground process from it), else built here
    const { tensors: [kpos], owned } = await linearPositionKernelOf(ctx, stage);
    try {
      await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
        const kmark = await stage('mark-kernel', () =>
          tf.tidy(() => {
            const dec = sliceRows(decMarks, s0, s1);
            return kernelDirect(dec, ctx.encMarks, ctx.waveformStd);
          }),
        );
        const terms = await stage('reduce', () =>
          tf.tidy(() => {
            const joint = tf.div(tf.matMul(kmark, kpos), ctx.nEnc) as tf.Tensor2D;
            return epilogue(ctx, tf.log(joint) as tf.Tensor2D);
          }),
        );
        kmark.dispose();
        await emit(s0, terms);
      });
    } finally {
      if (owned) kpos.dispose();
    }
  },
};
