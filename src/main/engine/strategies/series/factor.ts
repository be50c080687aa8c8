/**
 * The series factor W = Ψᵀ·Kpos (F × P) of an electrode: Ψ its encoding spikes' series features
 * (plan.ts), built from the linear position kernel, or with the ground process in one pass of the
 * fused seriesGroundFactor op where it runs; its bytes, work and position-cache name.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Work } from '../../model';
import { seriesFactor, seriesGroundFactor } from '../../ops';
import { scaledRow, seriesFeatures, type SeriesPlan } from './plan';

/** Features padded with zero columns to a multiple of 4: the SIMD factor kernel takes four at a time. */
export function paddedFeatureCount(plan: SeriesPlan): number {
  return Math.ceil(plan.basis.nFeatures / 4) * 4;
}

/** Ψ (E × Fpad) on the host: row i is e^{−½|b_i|²}·b_i^α/√α!, then zeros. */
function encodingFeatures(plan: SeriesPlan, encMarks: Float32Array, nEnc: number): Float32Array {
  const F = plan.basis.nFeatures;
  const Fp = paddedFeatureCount(plan);
  const row = new Float64Array(plan.centre.length);
  const feat = new Float64Array(F);
  const out = new Float32Array(Fp * nEnc);
  for (let i = 0; i < nEnc; i++) {
    const w = Math.exp(-0.5 * scaledRow(plan, encMarks, i, row));
    seriesFeatures(plan.basis, row, feat, 0);
    for (let a = 0; a < F; a++) out[i * Fp + a] = w * feat[a]!;
  }
  return out;
}

/** The position cache's name for an electrode's series factor of this plan's order. */
export function seriesFactorKind(plan: SeriesPlan): string {
  return `series ${plan.basis.order}`;
}

/** Ψ (nEnc × Fpad) as a tensor, from the encoding marks as float32 (encHost, nEnc × D). */
function encodingFeaturesTensor(plan: SeriesPlan, encHost: Float32Array, nEnc: number): tf.Tensor2D {
  return tf.tensor2d(encodingFeatures(plan, encHost, nEnc), [nEnc, paddedFeatureCount(plan)]);
}

/**
 * W (Fpad × P) of an electrode from its encoding marks as float32 (encHost, nEnc × D) and its linear
 * position kernel: built by the fit that keeps it, or by a predict that finds none kept.
 */
export function buildSeriesFactor(plan: SeriesPlan, encHost: Float32Array, nEnc: number, kpos: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => seriesFactor.run(encodingFeaturesTensor(plan, encHost, nEnc), kpos));
}

/** Whether groundDensityAndSeriesFactor runs here for this many bins. */
export function canFuseSeriesFit(nBins: number): boolean {
  return seriesGroundFactor.runsFused(nBins);
}

/**
 * What a fit for series needs from an electrode's linear position kernel, without the kernel: its
 * column maxima and sums (the ground process, as linearPositionKernel gives them) and the series
 * factor (as buildSeriesFactor gives it), bit for bit, in one pass of the fused seriesGroundFactor op over cache-
 * sized tiles of kernel rows. Only where canFuseSeriesFit says so, for at least one position;
 * elsewhere the caller builds the kernel, then the factor.
 */
export function groundDensityAndSeriesFactor(
  positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush: boolean, plan: SeriesPlan, encHost: Float32Array,
): { colMax: tf.Tensor1D; colSum: tf.Tensor1D; factor: tf.Tensor2D } {
  const psi = encodingFeaturesTensor(plan, encHost, positions.shape[0]);
  try {
    return seriesGroundFactor.run(positions, centers, std, flush, psi);
  } finally {
    psi.dispose();
  }
}

/** Bytes of the series factor of this plan over nBins bins. */
export function seriesFactorBytes(plan: SeriesPlan, nBins: number): number {
  return paddedFeatureCount(plan) * nBins * Float32Array.BYTES_PER_ELEMENT;
}

/** The work of buildSeriesFactor, for the span it runs in. */
export function buildSeriesFactorWork(plan: SeriesPlan, nEnc: number, nBins: number): Work {
  return seriesFactor.work(paddedFeatureCount(plan), nEnc, nBins);
}

