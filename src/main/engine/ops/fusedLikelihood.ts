/**
 * One electrode's spike terms for a block of decoding spikes in one kernel (FUSED_LIKELIHOOD_KERNEL):
 * the mark kernel, the compensated position factor, the log, the bias and the floor. The engine's
 * WebGPU kernel where the active backend has it and takes the shape (two dispatches per block);
 * elsewhere this op graph, which is the kernel's definition on every backend (the kernel contract
 * suite holds both to the float64 reference).
 */
import * as tf from '@tensorflow/tfjs-core';
import { FLOAT32_BYTES, NO_WORK, type Work } from '../model';
import { FUSED_LIKELIHOOD_KERNEL, type FusedLikelihoodAttrs } from '../kernels';
import { FUSED_TILES, fusedLikelihoodTakes } from '../webgpu';
import { fusedKernelRuns, runFusedKernel } from './fusedKernel';

export type Attrs = FusedLikelihoodAttrs;

/** The electrode's operands that do not change from block to block. */
export interface Operands {
  /** (D) 1 / waveform std */
  invStd: tf.Tensor1D;
  /** (D × E) encoding marks over the widths */
  encT: tf.Tensor2D;
  /** (1 × E) or (E) the position factor's row maxima, and (E × P) the factor (positionFactorRows) */
  rowMax: tf.Tensor;
  factor: tf.Tensor2D;
  /** (P) log μ − log π, −Infinity where the occupancy is 0 */
  bias: tf.Tensor1D;
}

/** Whether the active backend runs the fused kernel on an electrode of this shape. */
export function runsFused(nEnc: number, nBins: number, nFeatures: number): boolean {
  return fusedKernelRuns(FUSED_LIKELIHOOD_KERNEL) && fusedLikelihoodTakes(nEnc, nBins, nFeatures);
}

/** ℓ (B × P) for the block, rows attrs.first … of the raw decoding marks dec (S × D). */
export function run(dec: tf.Tensor2D, o: Operands, attrs: Attrs): tf.Tensor2D {
  const [nEnc, nBins] = o.factor.shape;
  if (runsFused(nEnc, nBins, dec.shape[1])) {
    return runFusedKernel(FUSED_LIKELIHOOD_KERNEL, { dec, invStd: o.invStd, encT: o.encT, rowMax: o.rowMax, factor: o.factor, bias: o.bias }, attrs) as tf.Tensor2D;
  }
  return opGraph(dec, o, attrs);
}

/** The definition: the mark kernel by the expanded square, a scale per spike, one GEMM with the factor. */
export function opGraph(dec: tf.Tensor2D, o: Operands, { first, count, c, logE, floor }: Attrs): tf.Tensor2D {
  return tf.tidy(() => {
    const y = tf.mul(tf.slice(dec, [first, 0], [count, -1]), o.invStd) as tf.Tensor2D;
    const sq = tf.relu(tf.sub(tf.add(tf.sum(tf.square(y), 1, true), tf.sum(tf.square(o.encT), 0, true)), tf.mul(tf.matMul(y, o.encT), 2)));
    const a = tf.reshape(o.rowMax, [1, -1]);
    // an encoding spike whose row maximum is not finite weighs nothing, as in the kernel
    const finite = tf.logicalAnd(tf.logicalNot(tf.isNaN(a)), tf.less(tf.abs(a), Infinity));
    const z = tf.where(tf.broadcastTo(finite, sq.shape), tf.add(tf.mul(sq, -0.5), a), tf.fill(sq.shape as [number, number], -Infinity));
    const m = tf.max(z, 1, true);
    const scale = tf.where(tf.less(tf.abs(m), Infinity), m, tf.zerosLike(m));
    const sum = tf.matMul(tf.exp(tf.sub(z, scale)), o.factor) as tf.Tensor2D;
    const terms = tf.maximum(tf.add(tf.add(tf.log(sum), tf.add(scale, c - logE)), o.bias), floor);
    const biasFinite = tf.less(tf.abs(o.bias), Infinity);
    const onFloor = tf.logicalOr(tf.logicalNot(tf.greater(sum, 0)), tf.logicalNot(biasFinite));
    return tf.where(tf.logicalAnd(onFloor, tf.logicalNot(tf.isNaN(sum))), tf.fill(sum.shape, floor), terms) as tf.Tensor2D;
  });
}

/**
 * What the WebGPU kernel does for a block of b spikes, counted from its tiles: the max pass (the
 * mark kernel once per pair), then per tile of bins the mark kernel and its exp again for its
 * spikes, the product, and the log epilogue; device memory read is the operands once per tile
 * (the factor once per tile of spikes) and the terms written once.
 */
export function work(b: number, nEnc: number, nBins: number, nFeatures: number): Work {
  const binTiles = Math.ceil(nBins / FUSED_TILES.bins);
  const spikeTiles = Math.ceil(b / FUSED_TILES.spikes);
  const markFlops = b * nEnc * (3 * nFeatures + 2);
  const bytes = FLOAT32_BYTES * (b * nFeatures + nEnc * nFeatures * (1 + spikeTiles * binTiles) + spikeTiles * nEnc * nBins + b * nBins + b);
  return {
    ...NO_WORK,
    gemmFlops: 2 * b * nEnc * nBins,
    otherFlops: markFlops * (1 + binTiles) + 6 * b * nBins,
    exps: b * nEnc * binTiles,
    logs: b * nBins,
    bytes,
    streamBytes: bytes,
  };
}
