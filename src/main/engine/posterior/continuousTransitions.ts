/**
 * Rows of the continuous (bin-to-bin) transition blocks of posterior-spec §4, in float64. A row is
 * computed on its own, so a caller that keeps only a band never holds the P × P block.
 */
import { lowerBound, upperBound } from '../../../shared/sortedSearch';
import { gridDims, type PlaceGrid } from './grid';

/** Which continuous transition a block of two states follows; one-bin blocks ignore it (§4). */
export type ContinuousKind = 'randomWalk' | 'uniform' | 'discrete';

/**
 * Beyond this many nats below the peak a density cannot matter. A row's entries sum to at most 1
 * and hold the peak, so an entry that far below it is under e^−105 ≈ 2.5e-46, less than half of
 * float32's smallest subnormal: it rounds to a float32 zero. And P such terms added to the float64
 * row sum stay under half its last place, so skipping them changes no float32 entry and no sum. It
 * makes a row O(band) instead of O(B) exps, and sets the reach of the random walk's convolutions.
 */
export const NEGLIGIBLE_NATS = 105;

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
 * Row `from` of the Euclidean random walk on a grid of any dimension (posterior-spec §2b.4): the
 * isotropic N(c_j; c_i, movementVar · I) (scipy's multivariate_normal with a scalar covariance),
 * non-interior rows and columns zeroed, the row divided by its sum. Bins beyond the negligible
 * reach in Euclidean distance are left 0, as the 1-D row leaves them. 1-D grids take the sorted run.
 */
export function gridRandomWalkRow(grid: PlaceGrid, movementVar: number, from: number, out: Float64Array): void {
  const dims = gridDims(grid);
  if (dims === 1) {
    randomWalkRow(grid.centers, grid.interior, movementVar, from, out);
    return;
  }
  out.fill(0);
  const { centers, interior } = grid;
  if (!interior[from]) return;
  const scale = (2 * Math.PI * movementVar) ** (-dims / 2);
  const reach2 = 2 * NEGLIGIBLE_NATS * movementVar;
  let sum = 0;
  for (let j = 0; j < interior.length; j++) {
    if (!interior[j]) continue;
    let d2 = 0;
    for (let a = 0; a < dims; a++) d2 += (centers[j * dims + a]! - centers[from * dims + a]!) ** 2;
    if (d2 > reach2) continue;
    const density = Math.exp((-0.5 * d2) / movementVar) * scale;
    out[j] = density;
    sum += density;
  }
  if (!(sum > 0)) {
    out.fill(0);
    return;
  }
  for (let j = 0; j < out.length; j++) if (out[j] !== 0) out[j] = out[j]! / sum;
}

/**
 * The value a uniform row gives every interior destination: ones over interior bins divided by
 * their count. One-bin → spatial blocks use it whatever their declared kind ("ASSUME uniform").
 */
export function uniformValue(nInterior: number): number {
  return nInterior > 0 ? 1 / nInterior : 0;
}
