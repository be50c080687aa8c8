/**
 * The 1-D place grid of posterior-spec §2 (Environment.fit_place_grid without a track graph),
 * with the floating-point steps of numpy.linspace and numpy.histogramdd so the edges, and hence
 * every transition built on the centres, match the reference bit for bit.
 *
 * data/grid.ts computes the same grid for the likelihood's loaders, but the engine may not import
 * data/ (node-side), so the posterior keeps its own copy of these few lines.
 */
import { upperBound } from '../../../shared/sortedSearch';

export interface PlaceGrid {
  /** n + 1 equally spaced edges from the smallest to the largest position */
  edges: Float64Array;
  /** n bin centres */
  centers: Float64Array;
  /** 1 where the bin holds at least one position sample */
  interior: Uint8Array;
}

/** numpy.linspace(start, stop, num) with endpoint=True: i·step + start, the last value exactly stop. */
function linspace(start: number, stop: number, num: number): Float64Array {
  const out = new Float64Array(num);
  const step = num > 1 ? (stop - start) / (num - 1) : 0;
  for (let i = 0; i < num; i++) out[i] = i * step + start;
  if (num > 1) out[num - 1] = stop;
  return out;
}

function finiteRange(positions: Float64Array): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of positions) {
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    throw new RangeError('position has no finite samples to build a place grid from');
  }
  return [lo, hi];
}

/** Bins are [e_j, e_{j+1}) and the last one is closed on the right, as in numpy.histogramdd. */
function occupiedBins(positions: Float64Array, edges: Float64Array): Uint8Array {
  const n = edges.length - 1;
  const occupied = new Uint8Array(n);
  const last = edges[n]!;
  for (const v of positions) {
    if (Number.isNaN(v)) continue;
    const bin = v === last ? n - 1 : upperBound(edges, v) - 1;
    if (bin >= 0 && bin < n) occupied[bin] = 1;
  }
  return occupied;
}

/**
 * Every position sample counts (not only the training ones: §15, the detector's grid would shrink
 * from 84 to 58 bins). A position without spread gets numpy.histogram's one bin of width 1.
 */
export function placeGrid(positions: Float64Array, placeBinSize = 2.0): PlaceGrid {
  if (!(placeBinSize > 0) || !Number.isFinite(placeBinSize)) {
    throw new RangeError(`place bin size must be a positive number, got ${placeBinSize}`);
  }
  let [lo, hi] = finiteRange(positions);
  let n = Math.ceil((hi - lo) / placeBinSize) | 0;
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
    n = 1;
  }
  const edges = linspace(lo, hi, n + 1);
  const centers = new Float64Array(n);
  for (let j = 0; j < n; j++) centers[j] = edges[j]! + (edges[j + 1]! - edges[j]!) / 2;
  return { edges, centers, interior: occupiedBins(positions, edges) };
}
