/**
 * Host-side log-space helpers of the likelihood: the spec's safe log, an electrode's bias per bin
 * (log μ − log π) and the largest finite value of such a vector.
 */
import { EPS } from '../model';

/** max(log x, LOG_EPS) with NaN kept: safe_log of the spec for x ≥ 0. */
export function safeLog(x: number, logEps: number): number {
  if (Number.isNaN(x)) return x;
  return Math.abs(x) < EPS ? logEps : Math.log(x);
}

/**
 * An electrode's bias per bin, log μ_e − log π_p, −Infinity where the occupancy is not > 0: float32,
 * as the strategies add it to their terms.
 */
export function electrodeBias(meanRate: number, occupancy: Float64Array, logOccupancy: Float64Array): Float32Array {
  const logRate = Math.log(meanRate);
  const bias = new Float32Array(occupancy.length);
  for (let p = 0; p < bias.length; p++) bias[p] = occupancy[p]! > 0 ? logRate - logOccupancy[p]! : -Infinity;
  return bias;
}

/** The largest finite value (−Infinity when none). */
export function maxFinite(values: ArrayLike<number>): number {
  let top = -Infinity;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) top = Math.max(top, values[i]!);
  return top;
}
