/**
 * Rows of the continuous (bin-to-bin) transition blocks of posterior-spec §4, in float64. A row is
 * computed on its own, so a caller that keeps only a band never holds the P × P block.
 */
import { lowerBound, upperBound } from '../../../shared/sortedSearch';

/** Which continuous transition a block of two states follows; one-bin blocks ignore it (§4). */
export type ContinuousKind = 'randomWalk' | 'uniform' | 'discrete';

/**
 * Beyond this many nats below the peak a density cannot matter: exp(−200) ≈ 1e-87 is far under
 * float32's smallest subnormal after normalisation, and P such terms added to the float64 row sum
 * stay under half its last place, so skipping them changes no float32 entry and no sum. It makes
 * a row O(band) instead of O(B) exps.
 */
export const NEGLIGIBLE_NATS = 200;

/**
 * Row `from` of the Euclidean random walk over all grid bins: N(c_j; c_i, movementVar), with
 * non-interior rows and columns zeroed, divided by its sum (a zero row stays zero). movementVar is
 * a variance: §15 measures what reading it as a standard deviation does. The Gaussian's constant
 * cancels in the division but is kept, so the rounding follows scipy's pdf as closely as it can.
 * The centres of a 1-D grid ascend, so the bins within reach are one run around `from`.
 */
export function randomWalkRow(
  centers: Float64Array, interior: Uint8Array, movementVar: number, from: number, out: Float64Array,
): void {
  out.fill(0);
  if (!interior[from]) return;
  const scale = 1 / Math.sqrt(2 * Math.PI * movementVar);
  const origin = centers[from]!;
  const reach = Math.sqrt(2 * NEGLIGIBLE_NATS * movementVar);
  const lo = lowerBound(centers, origin - reach);
  const hi = upperBound(centers, origin + reach);
  let sum = 0;
  for (let j = lo; j < hi; j++) {
    if (!interior[j]) continue;
    const d = centers[j]! - origin;
    const density = Math.exp((-0.5 * d * d) / movementVar) * scale;
    out[j] = density;
    sum += density;
  }
  if (!(sum > 0)) {
    out.fill(0);
    return;
  }
  for (let j = lo; j < hi; j++) out[j] = out[j]! / sum;
}

/**
 * The value a uniform row gives every interior destination: ones over interior bins divided by
 * their count. One-bin → spatial blocks use it whatever their declared kind ("ASSUME uniform").
 */
export function uniformValue(nInterior: number): number {
  return nInterior > 0 ? 1 / nInterior : 0;
}
