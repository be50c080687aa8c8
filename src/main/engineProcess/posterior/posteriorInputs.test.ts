import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { likelihoodArgmax, PositionErrors } from './positionErrors';
import { missingRows, placeGridOf } from './posteriorInputs';

function dataset(over: Partial<Dataset>): Dataset {
  return {
    name: 't', source: 't', positionTime: Float64Array.of(0, 1, 2, 3), position: Float64Array.of(0, 10, NaN, 30), positionDims: 1,
    time: Float64Array.of(0, 0.5, 1.5, 3, 4), electrodes: [], placeBinCenters: Float64Array.of(1, 3, 7),
    params: { positionStd: 6, waveformStd: [24], blockSize: 100 }, notes: [], ...over,
  } as Dataset;
}

describe('posterior inputs', () => {
  it('takes the whole grid with its interior mask, or every bin interior when only the interior is known', () => {
    const full = placeGridOf(dataset({ placeGrid: { centers: Float64Array.of(1, 3, 5, 7), interior: Uint8Array.of(1, 1, 0, 1) } }));
    expect(Array.from(full.interior)).toEqual([1, 1, 0, 1]);
    const bare = placeGridOf(dataset({}));
    expect(Array.from(bare.centers)).toEqual([1, 3, 7]);
    expect(Array.from(bare.interior)).toEqual([1, 1, 1]);
    expect(() => placeGridOf(dataset({ positionDims: 2 }))).toThrow(/needs the whole place grid.*place_bin_centers \(P, 2\)/);
    expect(() => placeGridOf(dataset({ positionDims: 3 }))).toThrow(/1-D and 2-D positions; t has 3-D/);
    const grid2d = { centers: Float64Array.of(0, 0, 0, 1, 1, 0, 1, 1), interior: Uint8Array.of(1, 1, 0, 1), shape: [2, 2] };
    expect(placeGridOf(dataset({ positionDims: 2, placeGrid: grid2d }))).toBe(grid2d);
  });

  it('marks the rows whose interpolated position is NaN as missing (posterior-spec §8), and none when all are known', () => {
    // rows at 1.5 (between 10 and NaN) and nothing else: 0, 0.5, 3 and 4 (after the end: the last sample) are known
    expect(Array.from(missingRows(dataset({}))!)).toEqual([0, 0, 1, 0, 0]);
    expect(missingRows(dataset({ position: Float64Array.of(0, 10, 20, 30) }))).toBeUndefined();
    const decoding = { decodingPositionTime: Float64Array.of(0, 4), decodingPosition: Float64Array.of(NaN, 5) };
    expect(Array.from(missingRows(dataset(decoding))!)).toEqual([1, 1, 1, 1, 0]);
  });

  it('sums up decoded positions against the truth: median error and share within 10', () => {
    const errors = PositionErrors.of(dataset({ position: Float64Array.of(0, 10, 20, 30), time: Float64Array.of(0, 1, 2, 3) }), ['map'])!.map;
    errors.add(0, [0, 25]);
    errors.add(2, [NaN, 31]);
    expect(errors.summary()).toEqual({ rows: 3, medianAbsError: 1, shareWithin10: 2 / 3 });
    expect(Array.from(likelihoodArgmax(Float32Array.of(-1, -3, -2, -Infinity, -Infinity, -Infinity), 2, [5, 15, 25]))).toEqual([5, NaN]);
  });
});
