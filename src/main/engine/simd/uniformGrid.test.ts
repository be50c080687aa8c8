import { describe, expect, it } from 'vitest';
import { gridFloor, gridRowStates, shiftedColumnSums, uniformGridOf } from './uniformGrid';

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

  it('starts each row at the exact exponents and walks it within float64 rounding of exp', () => {
    const grid = { start: 0.0125, step: 0.0283 };
    const m = 1000;
    const c = -2.1847;
    const a = Float64Array.from([0, 3.1, 14.2, 27.9, -5, 33.5]);
    const plan = gridRowStates(a, grid, m, c)!;
    expect(plan).not.toBeNull();
    const z = (i: number, k: number): number => c - 0.5 * (a[i]! - grid.start - k * grid.step) ** 2;
    let worst = 0;
    for (let i = 0; i < a.length; i++) {
      const g = plan.states.slice(i * 8, i * 8 + 4);
      const r = plan.states.slice(i * 8 + 4, i * 8 + 8);
      // the recurrence as $gridRows runs it, entry by entry, against exp of the exponent
      for (let k = 0; k < m; k += 4) {
        for (let j = 0; j < 4; j++) {
          worst = Math.max(worst, Math.abs(g[j]! / Math.exp(z(i, k + j)) - 1));
          g[j] = g[j]! * r[j]!;
          r[j] = r[j]! * plan.q;
        }
      }
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1e-11);
  });

  it('refuses rows that would leave the float64 range, and samples that are not finite', () => {
    const grid = { start: 0, step: 0.03 };
    expect(gridRowStates(Float64Array.from([0, 36]), grid, 1000, -1)).not.toBeNull();
    // 40 widths from the far end of the grid: e^{−800} underflows
    expect(gridRowStates(Float64Array.from([0, 70]), grid, 1000, -1)).toBeNull();
    // bins 30 widths apart: the ratio e^{4δ·u} overflows
    expect(gridRowStates(Float64Array.from([5]), { start: 0, step: 30 }, 8, -1)).toBeNull();
    expect(gridRowStates(Float64Array.from([1, NaN]), grid, 100, -1)).toBeNull();
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
