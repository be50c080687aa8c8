/**
 * What the posterior needs from the dataset besides the likelihood: the whole place grid with its
 * interior mask (non-interior bins stay in the state space, posterior-spec §4), and which rows have
 * no position (§8: their log likelihood is 0 in every state, no evidence).
 */
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { upperBound } from '../../../shared/sortedSearch';
import type { PlaceGrid } from '../../engine/posterior';

/** The dataset's whole 1-D grid; a dataset that knows only its interior bins has every bin interior. */
export function placeGridOf(dataset: Dataset): PlaceGrid {
  if (dataset.positionDims !== 1) {
    throw new AppError('BAD_ARGUMENT', `the posterior runs on 1-D positions; ${dataset.name} has ${dataset.positionDims}-D positions. Decode without --model, or linearize the track first.`, { key: 'position' });
  }
  return dataset.placeGrid ?? { centers: dataset.placeBinCenters, interior: new Uint8Array(dataset.placeBinCenters.length).fill(1) };
}

/**
 * 1 for each row whose position, interpolated linearly on the decoding position track at the row's
 * time, is NaN (a NaN neighbour); rows outside the track's time span keep the nearest end's value.
 * Undefined when no row is missing.
 */
export function missingRows(dataset: Dataset): Uint8Array | undefined {
  const times = dataset.decodingPositionTime ?? dataset.positionTime;
  const values = dataset.decodingPosition ?? dataset.position;
  const q = dataset.positionDims;
  const n = times.length;
  const missing = new Uint8Array(dataset.time.length);
  let any = false;
  const isNaNAt = (i: number): boolean => Number.isNaN(values[i * q]!);
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
