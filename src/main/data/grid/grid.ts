/**
 * The 1-D place grid of kde-spec §2.2 (Environment.fit_place_grid with no track graph), computed with
 * the same floating-point steps as numpy.linspace / numpy.histogramdd so bin edges match the reference.
 */
import { upperBound } from '../../../shared/sortedSearch';

/** numpy.linspace(start, stop, num) with endpoint=True: i·step + start, last value exactly stop. */
export function linspace(start: number, stop: number, num: number): Float64Array {
  const out = new Float64Array(Math.max(0, num));
  if (num <= 0) return out;
  const div = num - 1;
  const delta = stop - start;
  const step = div > 0 ? delta / div : NaN;
  for (let i = 0; i < num; i++) {
    out[i] = step === 0 ? (i / div) * delta + start : i * step + start;
  }
  if (num > 1) out[num - 1] = stop;
  else out[0] = start;
  return out;
}

export interface PlaceGrid1d {
  /** n_bins + 1 edges */
  edges: Float64Array;
  /** n_bins centres */
  centers: Float64Array;
  /** n_bins flags: the bin holds at least one position sample */
  isInterior: boolean[];
}

/**
 * Builds the grid from the finite samples of a 1-D position. When every finite sample has the same
 * value, numpy would reject n_bins = 0; we follow numpy.histogram's rule for an empty range instead
 * (one bin, edges value ± 0.5) so a stationary animal still gets a grid.
 */
export function buildPlaceGrid1d(position: Float64Array, placeBinSize: number): PlaceGrid1d {
  if (!(placeBinSize > 0) || !Number.isFinite(placeBinSize)) {
    throw new RangeError(`place_bin_size must be a positive number, got ${placeBinSize}`);
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of position) {
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    throw new RangeError('position has no finite samples to build a place grid from');
  }
  // numpy.ceil(...).astype(int32)
  let nBins = Math.ceil((hi - lo) / placeBinSize) | 0;
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
    nBins = 1;
  }
  const edges = linspace(lo, hi, nBins + 1);
  const centers = new Float64Array(nBins);
  for (let j = 0; j < nBins; j++) centers[j] = edges[j]! + (edges[j + 1]! - edges[j]!) / 2;
  const counts = histogramCounts(position, edges);
  return { edges, centers, isInterior: Array.from(counts, (c) => c > 0) };
}

/** numpy.histogramdd counting in 1-D: bins are [e_j, e_{j+1}), the last one closed on the right. */
export function histogramCounts(values: Float64Array, edges: Float64Array): Uint32Array {
  const nBins = edges.length - 1;
  const counts = new Uint32Array(Math.max(0, nBins));
  if (nBins <= 0) return counts;
  const last = edges[nBins]!;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    // searchsorted(edges, v, side='right') - 1: the last edge ≤ v
    let bin = upperBound(edges, v) - 1;
    if (v === last) bin = nBins - 1;
    if (bin >= 0 && bin < nBins) counts[bin]!++;
  }
  return counts;
}
