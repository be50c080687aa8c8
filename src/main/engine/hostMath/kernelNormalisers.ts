/**
 * The Gaussian kernels' log-normalisers, and the flush bound an electrode's kernels are built under
 * (model/flush.ts), from its kernel widths: host arithmetic shared by the ops and the strategies.
 */
import { EPS, flushIsSafe, flushThreshold, HALF_LOG_2PI } from '../model';

/** Σ_j (−ln σ_j − ½ ln 2π): log-normaliser of a product Gaussian with widths σ. */
export function logNormaliser(std: number[]): number {
  return -std.reduce((s, v) => s + Math.log(v) + HALF_LOG_2PI, 0);
}

/**
 * Whether an electrode's position kernels and weights may drop entries below 2^−63 of their maxima
 * (model/flush.ts), from its kernel widths and its largest finite bias: the fit that keeps its
 * linear position kernel and a strategy that rebuilds it decide alike, so they build the same bits.
 */
export function electrodeFlushIsSafe(positionStd: number[], waveformStd: number[], maxBias: number): boolean {
  return flushIsSafe(...electrodeLogNormalisers(positionStd, waveformStd), maxBias);
}

/** The largest τ below which the same bound lets an electrode's terms drop (model/flush.ts flushThreshold). */
export function electrodeFlushThreshold(positionStd: number[], waveformStd: number[], maxBias: number): number {
  return flushThreshold(...electrodeLogNormalisers(positionStd, waveformStd), maxBias);
}

/** The position and mark kernels' log-normalisers as the flush bound takes them (mark widths clipped below at EPS). */
function electrodeLogNormalisers(positionStd: number[], waveformStd: number[]): [number, number] {
  return [logNormaliser(positionStd), logNormaliser(waveformStd.map((s) => Math.max(s, EPS)))];
}
