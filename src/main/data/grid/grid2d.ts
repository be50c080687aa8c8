/**
 * A rectangular 2-D place grid for position that arrives without one (NWB x, y): each axis binned as
 * the 1-D grid of kde-spec §2.2, centres in x-major order (numpy meshgrid, indexing='ij'), interior =
 * the bins the animal visited. No track graph and no morphological filling.
 */
import { upperBound } from '../../../shared/sortedSearch';
import { buildPlaceGrid1d } from './grid';

export interface PlaceGrid2d {
  /** (nx·ny × 2) row-major, x-major */
  centers: Float64Array;
  isInterior: boolean[];
  nx: number;
  ny: number;
}

/** numpy.histogramdd's bin of v: [e_j, e_{j+1}), the last bin closed; -1 outside */
function binOf(edges: Float64Array, v: number): number {
  const n = edges.length - 1;
  if (!(v >= edges[0]!) || !(v <= edges[n]!)) return -1;
  if (v === edges[n]) return n - 1;
  return upperBound(edges, v) - 1;
}

function column(position: Float64Array, d: number): Float64Array {
  const out = new Float64Array(position.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = position[i * 2 + d]!;
  return out;
}

export function buildPlaceGrid2d(position: Float64Array, placeBinSize: number): PlaceGrid2d {
  const gx = buildPlaceGrid1d(column(position, 0), placeBinSize);
  const gy = buildPlaceGrid1d(column(position, 1), placeBinSize);
  const nx = gx.centers.length;
  const ny = gy.centers.length;
  const visited = new Uint8Array(nx * ny);
  for (let i = 0; i < position.length / 2; i++) {
    const bx = binOf(gx.edges, position[i * 2]!);
    const by = binOf(gy.edges, position[i * 2 + 1]!);
    if (bx >= 0 && by >= 0) visited[bx * ny + by] = 1;
  }
  const centers = new Float64Array(nx * ny * 2);
  for (let x = 0; x < nx; x++) {
    for (let y = 0; y < ny; y++) {
      centers[(x * ny + y) * 2] = gx.centers[x]!;
      centers[(x * ny + y) * 2 + 1] = gy.centers[y]!;
    }
  }
  return { centers, isInterior: Array.from(visited, (v) => v === 1), nx, ny };
}
