/**
 * What the posterior needs from the dataset besides the likelihood: the whole place grid (1-D or 2-D) with its
 * interior mask (non-interior bins stay in the state space, posterior-spec §4), and which rows have
 * no position (§8: their log likelihood is 0 in every state, no evidence).
 */
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { upperBound } from '../../../shared/sortedSearch';
import type { PlaceGrid } from '../../engine/posterior';

/**
 * The dataset's whole grid. A 1-D dataset that knows only its interior bins has every bin interior;
 * a 2-D one must know its whole regular grid (built by the loader from place_bin_size as NLD builds
 * it, or the file's place_bin_centers with is_track_interior), as the random walk runs over it.
 */
export function placeGridOf(dataset: Dataset): PlaceGrid {
  const q = dataset.positionDims;
  if (q === 1) return dataset.placeGrid ?? { centers: dataset.placeBinCenters, interior: new Uint8Array(dataset.placeBinCenters.length).fill(1) };
  if (q !== 2) {
    throw new AppError('BAD_ARGUMENT', `the posterior runs on 1-D and 2-D positions; ${dataset.name} has ${q}-D positions. Decode without --model, or project the position to x, y first.`, { key: 'position' });
  }
  if (!dataset.placeGrid?.shape) {
    throw new AppError('BAD_ARGUMENT', `the 2-D posterior needs the whole place grid, and ${dataset.name} gives only its interior bins (or a grid that is not a regular x-major one). Give place_bin_centers (P, 2) in C order with is_track_interior (P,), or leave the grid out so it is built from params.place_bin_size as non_local_detector builds it.`, { key: 'place_bin_centers' });
  }
  return dataset.placeGrid;
}

/**
 * 1 for each row whose position, interpolated linearly on the decoding position track at the row's
 * time, is NaN in any coordinate (a NaN neighbour); rows outside the track's time span keep the nearest end's value.
 * Undefined when no row is missing.
 */
export function missingRows(dataset: Dataset): Uint8Array | undefined {
  const times = dataset.decodingPositionTime ?? dataset.positionTime;
  const values = dataset.decodingPosition ?? dataset.position;
  const q = dataset.positionDims;
  const n = times.length;
  const missing = new Uint8Array(dataset.time.length);
  let any = false;
  const isNaNAt = (i: number): boolean => {
    for (let d = 0; d < q; d++) if (Number.isNaN(values[i * q + d]!)) return true;
    return false;
  };
  dataset.time.forEach((t, row) => {
    const after = Math.min(n - 1, upperBound(times, t));
    const before = Math.max(0, after - 1);
    const exact = times[before] === t;
    const gap = exact ? isNaNAt(before) : t <= times[0]! ? isNaNAt(0) : t >= times[n - 1]! ? isNaNAt(n - 1) : isNaNAt(before) || isNaNAt(after);
    if (gap) {
      missing[row] = 1;
      any = true;
    }
  });
  return any ? missing : undefined;
}
