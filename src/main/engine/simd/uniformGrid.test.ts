import { describe, expect, it } from 'vitest';
import { GRID_STATE_FLOATS, gridApplies, gridCovered, gridFloor, gridRowStates, gridRowWindows, shiftedColumnSums, uniformGridOf } from './uniformGrid';

/** bin centres as the engine forms them: float32 centre times float32 1/width, rounded once more */
function scaledCentres(first: number, spacing: number, m: number, width: number): Float32Array {
  const inv = Math.fround(1 / width);
  return Float32Array.from({ length: m }, (_, k) => Math.fround(Math.fround(first + k * spacing) * inv));
}

describe('uniform grid for the one-dimensional Gaussian kernels', () => {
  it('takes evenly spaced bins at float32 rounding as a grid, and nothing else', () => {
    for (const [first, spacing, m, width] of [[0.05, 0.1, 1000, 3.5355], [0.025, 0.05, 2000, 3.5355], [-40, 2, 41, 6], [1000, 0.5, 400, 2]] as const) {
      const bt = scaledCentres(first, spacing, m, width);
      const grid = uniformGridOf(bt);
      expect(grid, `${first} + k·${spacing}, ${m} bins, width ${width}`).not.toBeNull();
      expect(grid!.step).toBeCloseTo(spacing / width, 5);
      // one bin moved by a hundredth of the spacing is not a grid
      const moved = Float32Array.from(bt);
      moved[Math.floor(m / 3)]! += (spacing / width) * 1e-2;
      expect(uniformGridOf(moved)).toBeNull();
    }
    expect(uniformGridOf(Float32Array.from([0, 1, 2]))).toBeNull();
    expect(uniformGridOf(Float32Array.from([0, 1, 3, 4]))).toBeNull();
    expect(uniformGridOf(Float32Array.from([1, 1, 1, 1]))).toBeNull();
    expect(uniformGridOf(Float32Array.from([0, 1, NaN, 3]))).toBeNull();
    expect(uniformGridOf(Float32Array.from([0, 1, 2, Infinity]))).toBeNull();
    // a decreasing grid is a grid
    expect(uniformGridOf(Float32Array.from([3, 2, 1, 0]))).toEqual({ start: 3, step: -1 });
  });

  it('starts each row at the exact exponents of its window and walks it within float64 rounding of exp', () => {
    const c = -2.1847;
    // a grid of 28 widths (every row takes all of it) and one of 113 (rows ~40 widths from an end take a window)
    for (const [grid, m, a] of [
      [{ start: 0.0125, step: 0.0283 }, 1000, [0, 3.1, 14.2, 27.9, -5, 33.5]],
      [{ start: 0.0125, step: 0.0283 }, 4000, [0.5, 30, 56.3, 90, 112.9]],
    ] as const) {
      const plan = gridRowStates(Float64Array.from(a), grid, m, c)!;
      expect(plan, `${m} bins`).not.toBeNull();
      const offsets = new Int32Array(plan.states.buffer);
      const z = (i: number, k: number): number => c - 0.5 * (a[i]! - grid.start - k * grid.step) ** 2;
      let worst = 0;
      for (let i = 0; i < a.length; i++) {
        const row = i * GRID_STATE_FLOATS;
        const [lo, hi] = [offsets[2 * row + 16]! / 4, offsets[2 * row + 17]! / 4];
        const nearest = Math.min(m - 1, Math.max(0, Math.round((a[i]! - grid.start) / grid.step)));
        expect(lo % 4 === 0 && hi % 4 === 0 && lo <= nearest && nearest < hi && hi <= m, `row ${i}: [${lo}, ${hi})`).toBe(true);
        // a window leaves out only bins more than 33 widths away, and only when the whole row would not fit
        if (lo > 0) expect((a[i]! - grid.start) / grid.step - lo).toBeGreaterThan(33 / grid.step);
        if (hi < m) expect(hi - 1 - (a[i]! - grid.start) / grid.step).toBeGreaterThan(33 / grid.step);
        const g = plan.states.slice(row, row + 4);
        const r = plan.states.slice(row + 4, row + 8);
        // the recurrence as $gridRows runs it, entry by entry, against exp of the exponent
        for (let k = lo; k < hi; k += 4) {
          for (let j = 0; j < 4; j++) {
            worst = Math.max(worst, Math.abs(g[j]! / Math.exp(z(i, k + j)) - 1));
            g[j] = g[j]! * r[j]!;
            r[j] = r[j]! * plan.q;
          }
        }
      }
      expect(worst).toBeGreaterThan(0);
      expect(worst, `${m} bins`).toBeLessThan(1e-11);
      const windowed = Array.from({ length: a.length }, (_, i) => offsets[2 * i * GRID_STATE_FLOATS + 16]! > 0 || offsets[2 * i * GRID_STATE_FLOATS + 17]! < 4 * m);
      expect(windowed.some(Boolean), `${m} bins`).toBe(m === 4000);
    }
  });

  it('windows rows that would leave the float64 range, and refuses coarse grids, uncovered bins and samples that are not finite', () => {
    const grid = { start: 0, step: 0.03 };
    expect(gridRowWindows(Float64Array.from([0, 29]), grid, 1000, -1)!.windowed).toBe(false);
    // 70 widths past the grid's start: e^{−2450} underflows, so that row takes a window
    expect(gridRowWindows(Float64Array.from([0, 70]), grid, 4000, -1)!.windowed).toBe(true);
    // bins 30 widths apart: the ratio e^{4δ·u} overflows even over a window
    expect(gridRowWindows(Float64Array.from([5]), { start: 0, step: 30 }, 8, -1)).toBeNull();
    expect(gridRowWindows(Float64Array.from([1, NaN]), grid, 100, -1)).toBeNull();
    // windowed column sums need every bin within 24 widths of a sample
    const points = Float32Array.from({ length: 4000 }, (_, k) => k * 0.03);
    expect(gridCovered(Float64Array.from([10, 50, 90, 110]), grid, 4000)).toBe(true);
    expect(gridCovered(Float64Array.from([10, 110]), grid, 4000)).toBe(false);
    expect(gridCovered(Float64Array.from([30, 110]), grid, 4000)).toBe(false);
    expect(gridApplies(Float64Array.from([10, 110]), points, -1)).toBe(false);
    // rows over their own maximum need no cover: nothing left out reaches float32
    expect(gridApplies(Float64Array.from([10, 110]), points, -1, true)).toBe(true);
    expect(gridApplies(Float64Array.from([10, 50, 90, 110]), points, -1)).toBe(true);
  });

  it('flushes below flush·e^{colMax} and turns the plain sums into the shifted ones', () => {
    const colMax = Float32Array.from([-1, -20.5, 0, -300]);
    expect([...gridFloor(colMax, 0)]).toEqual([0, 0, 0, 0]);
    const floor = gridFloor(colMax, 2 ** -63);
    colMax.forEach((mx, k) => expect(floor[k]! / (2 ** -63 * Math.exp(mx))).toBeCloseTo(1, 12));
    const out = new Float32Array(4);
    shiftedColumnSums(Float64Array.from([Math.exp(-1) * 2.5, Math.exp(-20.5), 3, Math.exp(-300) * 1.25]), colMax, out);
    expect([...out]).toEqual([2.5, 1, 3, 1.25].map(Math.fround));
  });
});
