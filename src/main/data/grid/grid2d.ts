/**
 * NLD's 2-D place grid for an open field without a track graph (posterior-spec §2b, its
 * Environment.fit_place_grid): per axis ceil(ptp / place_bin_size) bins of numpy.histogramdd, one
 * padding bin added at each end of every axis, centres in C order (bin ix·ny + iy), and the interior
 * the visited bins after scipy's binary closing with the 4-connected cross, the last bin along every
 * axis then cleared. The posterior keeps every bin; the likelihood runs on the interior ones.
 */
import { upperBound } from '../../../shared/sortedSearch';
import { linspace } from './grid';

export interface PlaceGrid2d {
  /** per axis, nx + 1 and ny + 1 edges, padding bins included */
  edges: [Float64Array, Float64Array];
  /** (nx·ny × 2) row-major, C order */
  centers: Float64Array;
  /** nx·ny flags, C order */
  interior: Uint8Array;
  shape: [number, number];
}

/** numpy.histogramdd's bin of v: searchsorted(edges, v, 'right') − 1, a value on the last edge in the last bin; −1 outside. */
function binOf(edges: Float64Array, v: number): number {
  const n = edges.length - 1;
  if (!(v >= edges[0]!) || !(v <= edges[n]!)) return -1;
  if (v === edges[n]) return n - 1;
  return upperBound(edges, v) - 1;
}

/** histogramdd's edges for `bins` bins over [lo, hi] (an empty range widened by 0.5 each way, as numpy does), then a padding bin at each end. */
function paddedEdges(lo: number, hi: number, bins: number): Float64Array {
  const [a, b, n] = lo === hi ? [lo - 0.5, hi + 0.5, Math.max(1, bins)] : [lo, hi, bins];
  const inner = linspace(a, b, n + 1);
  const step = inner[1]! - inner[0]!;
  const out = new Float64Array(n + 3);
  out[0] = inner[0]! - step;
  out.set(inner, 1);
  out[n + 2] = inner[n]! + step;
  return out;
}

/** The rows with both coordinates finite: the samples NLD grids (it drops rows with a NaN). */
function finiteRows(position: Float64Array): number[] {
  const rows: number[] = [];
  for (let i = 0; i < position.length / 2; i++) {
    if (Number.isFinite(position[i * 2]!) && Number.isFinite(position[i * 2 + 1]!)) rows.push(i);
  }
  return rows;
}

/** scipy.ndimage's binary dilation (any) or erosion (all) with the 4-connected cross, outside the grid 0. */
function crossPass(mask: Uint8Array, nx: number, ny: number, erode: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  const at = (x: number, y: number): number => (x < 0 || y < 0 || x >= nx || y >= ny ? 0 : mask[x * ny + y]!);
  for (let x = 0; x < nx; x++) {
    for (let y = 0; y < ny; y++) {
      const around = [at(x, y), at(x - 1, y), at(x + 1, y), at(x, y - 1), at(x, y + 1)];
      out[x * ny + y] = (erode ? around.every((v) => v === 1) : around.some((v) => v === 1)) ? 1 : 0;
    }
  }
  return out;
}

export function buildPlaceGrid2d(position: Float64Array, placeBinSize: number): PlaceGrid2d {
  if (!(placeBinSize > 0) || !Number.isFinite(placeBinSize)) {
    throw new RangeError(`place_bin_size must be a positive number, got ${placeBinSize}`);
  }
  const rows = finiteRows(position);
  if (rows.length === 0) throw new RangeError('position has no rows with finite x and y to build a place grid from');
  const axis = (d: number): Float64Array => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const i of rows) {
      lo = Math.min(lo, position[i * 2 + d]!);
      hi = Math.max(hi, position[i * 2 + d]!);
    }
    // numpy.ceil(ptp / size).astype(int32)
    return paddedEdges(lo, hi, Math.ceil((hi - lo) / placeBinSize) | 0);
  };
  const edges: [Float64Array, Float64Array] = [axis(0), axis(1)];
  const nx = edges[0].length - 1;
  const ny = edges[1].length - 1;
  const visited = new Uint8Array(nx * ny);
  for (const i of rows) {
    const bx = binOf(edges[0], position[i * 2]!);
    const by = binOf(edges[1], position[i * 2 + 1]!);
    if (bx >= 0 && by >= 0) visited[bx * ny + by] = 1;
  }
  const interior = crossPass(crossPass(visited, nx, ny, false), nx, ny, true);
  for (let y = 0; y < ny; y++) interior[(nx - 1) * ny + y] = 0;
  for (let x = 0; x < nx; x++) interior[x * ny + ny - 1] = 0;
  const centers = new Float64Array(nx * ny * 2);
  const mid = (e: Float64Array, j: number): number => e[j]! + (e[j + 1]! - e[j]!) / 2;
  for (let x = 0; x < nx; x++) {
    for (let y = 0; y < ny; y++) {
      centers[(x * ny + y) * 2] = mid(edges[0], x);
      centers[(x * ny + y) * 2 + 1] = mid(edges[1], y);
    }
  }
  return { edges, centers, interior, shape: [nx, ny] };
}

/**
 * [nx, ny] of 2-D centres laid out as NLD lays out its grid (C order: the first ny bins share x,
 * every bin (ix, iy) at (x_ix, y_iy), x and y ascending), or undefined for any other layout.
 */
export function regularGridShape(centers: Float64Array): [number, number] | undefined {
  const bins = centers.length / 2;
  let ny = 0;
  while (ny < bins && centers[ny * 2] === centers[0]) ny++;
  if (ny === 0 || bins % ny !== 0) return undefined;
  const nx = bins / ny;
  for (let x = 0; x < nx; x++) {
    for (let y = 0; y < ny; y++) {
      const k = (x * ny + y) * 2;
      if (centers[k] !== centers[x * ny * 2] || centers[k + 1] !== centers[y * 2 + 1]) return undefined;
      if (x > 0 && !(centers[k]! > centers[k - ny * 2]!)) return undefined;
      if (y > 0 && !(centers[k + 1]! > centers[k - 1]!)) return undefined;
    }
  }
  return [nx, ny];
}
