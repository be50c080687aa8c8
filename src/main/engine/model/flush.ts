/**
 * When the engine may set tiny kernel values to 0. Position-kernel and weight entries below 2^−63
 * (of their row's or column's maximum) are dropped where an electrode's bound shows that no J[k, p]
 * at or above the floor moves by more than FLUSH_TOLERANCE, relative: then no product in the
 * compensated matmul is subnormal (x86 cores slow down on every subnormal result, Intel's with a
 * microcode assist each; bench/kernels.ts shows the cost on the machine at hand), and the exp that
 * forms them needs no subnormal path.
 */
import { EPS } from './constants';

export const FLUSH_BELOW = 2 ** -63;
/** The most any J at or above the floor may change by the flush, relative. */
export const FLUSH_TOLERANCE = 1e-6;

/**
 * Whether dropping the terms with a weight or a position-kernel entry below 2^−63 changes no J[k, p]
 * at or above the floor by more than FLUSH_TOLERANCE. A dropped term is a product with one operand
 * below 2^−63 of a maximum and the other at most its own, and both maxima are at most their
 * kernels' normalisers (C_pos, C_mark: each log-kernel is at most its normaliser), so the E terms
 * of a J drop at most 2·2^−63·C_pos·C_mark in all (the compensated weights' scale e^{C*} is at most
 * C_pos·C_mark/E). The floor is J = EPS·π_p/μ = EPS·e^{−bias_p}, lowest at the largest finite bias.
 */
export function flushIsSafe(positionLogNorm: number, markLogNorm: number, maxBias: number): boolean {
  const dropped = 2 * FLUSH_BELOW * Math.exp(positionLogNorm + markLogNorm);
  return Number.isFinite(maxBias) && dropped * Math.exp(maxBias) <= FLUSH_TOLERANCE * EPS;
}

/**
 * The largest τ (relative to the kernels' normalisers) below which terms may be dropped by the same
 * bound: 2·τ·C_pos·C_mark·e^{maxBias} ≤ FLUSH_TOLERANCE·EPS. flushIsSafe says whether it reaches
 * FLUSH_BELOW; a kernel that drops by a larger τ where the bound allows it drops more (0 where the
 * largest bias is not finite).
 */
export function flushThreshold(positionLogNorm: number, markLogNorm: number, maxBias: number): number {
  if (!Number.isFinite(maxBias)) return 0;
  return (FLUSH_TOLERANCE * EPS) / (2 * Math.exp(positionLogNorm + markLogNorm + maxBias));
}
