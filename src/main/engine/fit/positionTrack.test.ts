import { describe, expect, it } from 'vitest';
import { upperBound } from '../../../shared/sortedSearch';
import { stdVector } from './kernelWidths';
import { dropNanRows, interpolatePosition, spikeRows, upperBoundFrom } from './positionTrack';
import { inBoundsIndices } from './rowSelection';

describe('spikeRows (numpy.digitize(u, time[1:-1]))', () => {
  const time = Float64Array.from([0, 1, 2, 3, 4]);
  it('maps interior grid points to the right-hand row and the last edge to row T−2', () => {
    expect([...spikeRows(Float64Array.from([0, 0.5, 1, 2.999, 3, 4]), time)]).toEqual([0, 0, 1, 2, 3, 3]);
  });
  it('puts every spike in row 0 when T ≤ 2', () => {
    expect([...spikeRows(Float64Array.from([0, 0.7, 1]), Float64Array.from([0, 1]))]).toEqual([0, 0, 0]);
    expect([...spikeRows(Float64Array.from([0]), Float64Array.from([0]))]).toEqual([0]);
  });
});

describe('upperBoundFrom', () => {
  it('finds what a binary search from scratch finds, from any hint, for queries in or out of order', () => {
    // sorted values with runs of duplicates, queries on them, between them, outside them and NaN
    const a = Float64Array.from([0, 0, 1, 2, 2, 2, 3, 5, 8, 8, 13, 21, 34, 34, 55]);
    const queries = [-1, 0, 0.5, 1, 2, 2.5, 3, 4, 8, 9, 21, 33.9, 34, 55, 60, NaN, 2, 0, 13, -5, 55];
    for (let hint = -2; hint <= a.length + 2; hint++) {
      for (const t of queries) expect(upperBoundFrom(a, t, hint), `t ${t} hint ${hint}`).toBe(upperBound(a, t));
    }
    // chained, as interpolatePosition uses it
    let h = 0;
    for (const t of queries) {
      h = upperBoundFrom(a, t, h);
      expect(h).toBe(upperBound(a, t));
    }
  });
});

describe('inBoundsIndices', () => {
  it('is closed on both ends and drops NaN', () => {
    expect([...inBoundsIndices(Float64Array.from([-1, 0, NaN, 2, 2.0001]), 0, 2)]).toEqual([1, 3]);
  });
});

describe('interpolatePosition (interpn, linear extrapolation, NaN rules of spec §3.3)', () => {
  const t = Float64Array.from([0, 1, 2, 3]);
  it('interpolates and extrapolates linearly', () => {
    const pos = Float64Array.from([0, 10, 20, 40]);
    expect([...interpolatePosition(t, pos, 1, Float64Array.from([0.5, 2.5, -1, 4]))]).toEqual([5, 30, -10, 60]);
  });
  it('a NaN sample j poisons queries in [τ_{j−1}, τ_{j+1})', () => {
    const pos = Float64Array.from([0, NaN, 20, 30]);
    const out = interpolatePosition(t, pos, 1, Float64Array.from([0, 0.5, 1.5, 1.999, 2, 2.5]));
    expect([...out].map(Number.isNaN)).toEqual([true, true, true, true, false, false]);
  });
  it('handles two columns', () => {
    const pos = Float64Array.from([0, 0, 2, 4, 4, 8, 6, 12]);
    expect([...interpolatePosition(t, pos, 2, Float64Array.from([0.5]))]).toEqual([1, 2]);
  });
  it('needs two samples', () => {
    expect(() => interpolatePosition(Float64Array.from([0]), Float64Array.from([1]), 1, Float64Array.from([0]))).toThrow(/two position samples/);
  });
});

describe('stdVector and dropNanRows', () => {
  it('repeats a scalar and checks a vector', () => {
    expect(stdVector(3, 2, 'position_std')).toEqual([3, 3]);
    expect(stdVector([1, 2], 2, 'waveform_std')).toEqual([1, 2]);
    expect(() => stdVector([1, 2], 3, 'waveform_std', 'tet1')).toThrow(/'tet1'/);
  });
  it('drops rows containing NaN with their times', () => {
    const r = dropNanRows(Float64Array.from([0, 1, 2]), Float64Array.from([1, 1, NaN, 2, 3, 3]), 2);
    expect([...r.positionTime]).toEqual([0, 2]);
    expect([...r.position]).toEqual([1, 1, 3, 3]);
    expect(r.dropped).toBe(1);
  });
});
