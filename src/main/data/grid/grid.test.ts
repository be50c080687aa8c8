import { describe, expect, it } from 'vitest';
import { buildPlaceGrid1d, histogramCounts, linspace } from './grid';

// Every expected value below was printed by NumPy 2.4 (numpy.linspace, and kde_reference.py's
// fit_place_grid_1d, which calls numpy.histogramdd); they must match bit for bit.
describe('linspace', () => {
  it('matches numpy.linspace', () => {
    expect(Array.from(linspace(0, 1, 7))).toEqual([0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666666, 0.8333333333333333, 1.0]);
    expect(Array.from(linspace(-3.7, 12.9, 11))).toEqual([
      -3.7, -2.04, -0.3799999999999999, 1.2800000000000002, 2.9400000000000004, 4.6000000000000005, 6.260000000000001,
      7.920000000000001, 9.580000000000002, 11.240000000000002, 12.9,
    ]);
    expect(Array.from(linspace(5, 9, 1))).toEqual([5]);
    expect(linspace(0, 1, 0).length).toBe(0);
  });
});

describe('buildPlaceGrid1d (kde-spec §2.2)', () => {
  it('drops NaN, ceil(ptp/h) bins, interior where samples fall', () => {
    const g = buildPlaceGrid1d(new Float64Array([0, 3.3, 7.1, Number.NaN, 10]), 2.0);
    expect(Array.from(g.edges)).toEqual([0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    expect(Array.from(g.centers)).toEqual([1.0, 3.0, 5.0, 7.0, 9.0]);
    expect(g.isInterior).toEqual([true, true, false, true, true]);
  });

  it('leaves gaps exterior and closes the last bin on the right', () => {
    const g = buildPlaceGrid1d(new Float64Array([0, 1, 2, 8, 9, 10]), 1.5);
    expect(Array.from(g.edges)).toEqual([0.0, 1.4285714285714286, 2.857142857142857, 4.285714285714286, 5.714285714285714, 7.142857142857143, 8.571428571428571, 10.0]);
    expect(Array.from(g.centers)).toEqual([0.7142857142857143, 2.142857142857143, 3.571428571428571, 5.0, 6.428571428571429, 7.857142857142858, 9.285714285714285]);
    expect(g.isInterior).toEqual([true, true, false, false, false, true, true]);
  });

  it('handles a range that does not start at 0', () => {
    const g = buildPlaceGrid1d(new Float64Array([0.1, 0.2, 0.35, 2.9]), 0.7);
    expect(Array.from(g.edges)).toEqual([0.1, 0.7999999999999999, 1.5, 2.1999999999999997, 2.9]);
    expect(Array.from(g.centers)).toEqual([0.44999999999999996, 1.15, 1.8499999999999999, 2.55]);
    expect(g.isInterior).toEqual([true, false, false, true]);
  });

  it('gives every profiling preset exactly n_position_bins interior bins', () => {
    for (const n of [100, 200, 500, 1000, 2000]) {
      const g = buildPlaceGrid1d(linspace(0, 100, n), 100 / n);
      expect(g.centers.length).toBe(n);
      expect(g.isInterior.every(Boolean)).toBe(true);
    }
    const medium = buildPlaceGrid1d(linspace(0, 100, 500), 0.2);
    expect([0, 1, 3, 250, 499, 500].map((i) => medium.edges[i])).toEqual([0.0, 0.2, 0.6000000000000001, 50.0, 99.80000000000001, 100.0]);
    expect([0, 1, 2, 249, 499].map((i) => medium.centers[i])).toEqual([0.1, 0.30000000000000004, 0.5, 49.900000000000006, 99.9]);
    const realistic = buildPlaceGrid1d(linspace(0, 100, 2000), 100 / 2000);
    expect([0, 1, 1999].map((i) => realistic.centers[i])).toEqual([0.025, 0.07500000000000001, 99.975]);
  });

  it('does not crash when every sample has the same value (numpy.histogram: one bin, value ± 0.5)', () => {
    const g = buildPlaceGrid1d(new Float64Array([5, 5, Number.NaN, 5]), 2);
    expect(Array.from(g.edges)).toEqual([4.5, 5.5]);
    expect(Array.from(g.centers)).toEqual([5]);
    expect(g.isInterior).toEqual([true]);
  });

  it('rejects a non-positive bin size and an all-NaN position', () => {
    expect(() => buildPlaceGrid1d(new Float64Array([0, 1]), 0)).toThrow(RangeError);
    expect(() => buildPlaceGrid1d(new Float64Array([Number.NaN]), 1)).toThrow(RangeError);
  });
});

describe('histogramCounts', () => {
  it('puts a value on an inner edge in the right-hand bin, the last edge in the last bin, outliers nowhere', () => {
    const edges = new Float64Array([0, 1, 2, 3]);
    expect(Array.from(histogramCounts(new Float64Array([1, 2, 3, 3, -0.1, 3.1, Number.NaN, 0]), edges))).toEqual([1, 1, 3]);
  });
});
