/**
 * (a) Linear-space reference (kde-spec §7a, §4.2): Kpos = exp(logKpos) once per electrode, the
 * mark kernel (B × E) per block by direct differences, J = Kmark·Kpos / E as one matmul, then the log
 * with the LOG_EPS floor. An underflowed J is exactly the floor, as in the linear file. On the wasm
 * backend the matmul is the engine's packed product (the compensated fold's, with nothing to fold:
 * scale e^0 = 1), about twice the backend's matmul; Kpos is packed once per electrode and call.
 */
import * as tf from '@tensorflow/tfjs-core';
import { kernelDirect } from '../gaussian';
import { packedProduct, type PackedFactor } from '../ops';
import { epilogue, forEachBlock, linearPositionKernelOf, sliceRows } from './common';
import type { StageFn, Strategy } from './types';

/** Kmark·Kpos through the packed product, or the backend's matmul without one. */
function linearProduct(kmark: tf.Tensor2D, kpos: tf.Tensor2D, packed: PackedFactor | null): tf.Tensor2D {
  return packed ? packedProduct.matMul(kmark, packed, kpos.shape[1]) : tf.matMul(kmark, kpos);
}

async function packedKernel(kpos: tf.Tensor2D, stage: StageFn): Promise<PackedFactor> {
  const [packed, flags] = await stage('pack', () => {
    const p = packedProduct.pack(kpos);
    return [p.packed, p.flags] as [tf.Tensor3D, tf.Tensor1D];
  });
  return { packed, flags };
}

export const reference: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    // the fit may have kept this kernel (it computes the ground process from it), else built here
    const { tensors: [kpos], owned } = await linearPositionKernelOf(ctx, stage);
    // a copy in panels for this call only: kept, it would double what the fit keeps
    const packed = packedProduct.runsFused(kpos.shape[1]) ? await packedKernel(kpos, stage) : null;
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
            const joint = tf.div(linearProduct(kmark, kpos, packed), ctx.nEnc) as tf.Tensor2D;
            return epilogue(ctx, tf.log(joint) as tf.Tensor2D);
          }),
        );
        kmark.dispose();
        await emit(s0, terms);
      });
    } finally {
      if (packed) tf.dispose([packed.packed, packed.flags]);
      if (owned) kpos.dispose();
    }
  },
};
