/**
 * The interior place-bin centres: from place_bin_centers + is_track_interior, or
 * interior_place_bin_centers, or built from place_bin_size as kde-spec §2.2 (1-D only).
 */
import type { PlaceGridBins } from '../../../shared/dataset';
import { count, finiteRange, num, scanNonFinite, shapeText, type ArrayReader, type ValidationFindings } from '../validation';
import { buildPlaceGrid1d, buildPlaceGrid2d, regularGridShape } from '../grid';
import { DEFAULT_PLACE_BIN_SIZE } from './loadParams';

/** a grid this large means a unit mistake, not a track */
const MAX_BUILT_BINS = 1_000_000;

/** The interior centres the likelihood runs on, and the whole 1-D grid where it is known. */
export interface GridResult {
  centers: Float64Array;
  full?: PlaceGridBins;
}

export interface GridInput {
  position: Float64Array;
  positionDims: number;
  placeBinSize: number | undefined;
}

async function readCenters(r: ArrayReader, f: ValidationFindings, key: string, dims: number): Promise<Float64Array | null> {
  const a = await r.numeric(key);
  if (!a) return null;
  const cols = a.shape.length === 1 ? 1 : a.shape.length === 2 ? a.shape[1]! : -1;
  if (cols !== dims) {
    f.error('E011', `'${key}' has shape ${shapeText(a.shape)} but position has ${dims} dimension${dims === 1 ? '' : 's'}; expected (P, ${dims}).`, { key });
    return null;
  }
  const bad = scanNonFinite(a.data);
  if (bad.count > 0) {
    f.error('E013', `'${key}' contains ${count(bad.count)} NaN/Inf values (first at index ${count(bad.first)}).`, { key, index: bad.first });
    return null;
  }
  return a.data;
}

function interiorOf(centers: Float64Array, mask: Float64Array, dims: number): Float64Array {
  const out: number[] = [];
  for (let p = 0; p < mask.length; p++) {
    if (mask[p] !== 0) for (let d = 0; d < dims; d++) out.push(centers[p * dims + d]!);
  }
  return Float64Array.from(out);
}

/**
 * The file's whole grid as the posterior takes it: 1-D as given; 2-D where its centres are a regular
 * x-major grid (NLD's layout), else only its interior bins for the likelihood, and a note why.
 */
function wholeGrid(centers: Float64Array, mask: Float64Array, dims: number, notes: string[]): PlaceGridBins | undefined {
  const interior = Uint8Array.from(mask, (v) => (v !== 0 ? 1 : 0));
  if (dims === 1) return { centers, interior };
  const shape = dims === 2 ? regularGridShape(centers) : undefined;
  if (shape) return { centers, interior, shape };
  notes.push(`place_bin_centers is not a regular x-major ${dims}-D grid: the likelihood runs on its interior bins, the posterior cannot`);
  return undefined;
}

export async function readGrid(r: ArrayReader, f: ValidationFindings, g: GridInput, notes: string[]): Promise<GridResult | null> {
  const dims = g.positionDims;
  let result: Float64Array | null = null;
  let full: PlaceGridBins | undefined;
  if (r.has('place_bin_centers') && r.has('is_track_interior')) {
    const centers = await readCenters(r, f, 'place_bin_centers', dims);
    const mask = await r.numeric('is_track_interior', undefined, true);
    if (!centers || !mask) return null;
    const nBins = centers.length / dims;
    if (mask.data.length !== nBins) {
      f.error('E010', `'is_track_interior' has ${count(mask.data.length)} entries but 'place_bin_centers' has ${count(nBins)} bins; they must be equal.`,
        { key: 'is_track_interior', fix: 'give one flag per row of place_bin_centers, in the same order' });
      return null;
    }
    result = interiorOf(centers, mask.data, dims);
    full = wholeGrid(centers, mask.data, dims, notes);
    notes.push(`place grid from place_bin_centers + is_track_interior: ${count(result.length / dims)} of ${count(nBins)} bins interior`);
  } else if (r.has('interior_place_bin_centers')) {
    result = await readCenters(r, f, 'interior_place_bin_centers', dims);
    if (!result) return null;
    notes.push(`place grid from interior_place_bin_centers: ${count(result.length / dims)} bins`);
  } else if (r.has('place_bin_centers')) {
    result = await readCenters(r, f, 'place_bin_centers', dims);
    if (!result) return null;
    notes.push(`place grid from place_bin_centers with no is_track_interior: all ${count(result.length / dims)} bins taken as interior`);
  } else {
    return buildGrid(f, g, notes);
  }
  if (result.length === 0) {
    f.error('E011', 'the place grid has no interior bins; nothing can be decoded.', {
      key: 'is_track_interior', fix: 'mark the bins the animal can reach true in is_track_interior, or leave the grid out so it is built from the positions and params.place_bin_size',
    });
    return null;
  }
  return full ? { centers: result, full } : { centers: result };
}

/**
 * The grid built from place_bin_size: 1-D as kde-spec §2.2; 2-D (x, y) as non_local_detector builds
 * it (posterior-spec §2b).
 */
export function buildGrid(f: ValidationFindings, g: GridInput, notes: string[]): GridResult | null {
  if (g.positionDims > 2) {
    f.error('E011', `position is ${g.positionDims}-D and the file gives no place grid; add place_bin_centers (P, ${g.positionDims}) with is_track_interior, or interior_place_bin_centers. Only 1-D and 2-D grids are built from place_bin_size.`,
      { key: 'place_bin_centers' });
    return null;
  }
  const h = g.placeBinSize ?? DEFAULT_PLACE_BIN_SIZE;
  const range = finiteRange(g.position);
  if (!range) {
    f.error('E011', 'position has no non-NaN samples, so no place grid can be built from it.', { key: 'position' });
    return null;
  }
  const perAxis = Math.ceil((range[1] - range[0]) / h);
  const nBins = g.positionDims === 2 ? perAxis * perAxis : perAxis;
  if (nBins > MAX_BUILT_BINS) {
    f.error('E011', `building the place grid with place_bin_size ${num(h)} over position [${num(range[0])}, ${num(range[1])}] would make ${count(nBins)} bins (limit ${count(MAX_BUILT_BINS)}); set params.place_bin_size or check the position units.`,
      { key: 'position' });
    return null;
  }
  const source = g.placeBinSize === undefined ? `${num(h)} (default, as non_local_detector's Environment)` : `${num(h)} from params`;
  if (g.positionDims === 2) {
    const grid = buildPlaceGrid2d(g.position, h);
    const interior = grid.centers.filter((_, k) => grid.interior[k >> 1] === 1);
    const [nx, ny] = grid.shape;
    notes.push(`2-D place grid built from place_bin_size ${source} as non_local_detector builds it: ${nx} × ${ny} bins with a padding bin at each end of each axis, ${count(interior.length / 2)} interior (visited, then closed)`);
    if (interior.length === 0) {
      f.error('E011', 'the 2-D place grid built from position has no interior bin; check position and params.place_bin_size.', { key: 'position' });
      return null;
    }
    return { centers: interior, full: { centers: grid.centers, interior: grid.interior, shape: grid.shape } };
  }
  const grid = buildPlaceGrid1d(g.position, h);
  const interior = grid.centers.filter((_, j) => grid.isInterior[j]);
  notes.push(`place grid built from place_bin_size ${source}: ${count(grid.centers.length)} bins over [${num(grid.edges[0]!)}, ${num(grid.edges[grid.edges.length - 1]!)}], ${count(interior.length)} interior`);
  return { centers: interior, full: { centers: grid.centers, interior: Uint8Array.from(grid.isInterior, (v) => (v ? 1 : 0)) } };
}
