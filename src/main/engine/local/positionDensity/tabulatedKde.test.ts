import { describe, expect, it } from 'vitest';
import { CELL_NODES, CELL_WIDTH } from './chebyshevCells';
import { MAX_RELATIVE_ERROR, tabulatedLogKde } from './tabulatedKde';
import { tabulationBounds } from './tabulationBound';

/** float64, pair by pair, with a running maximum so far tails keep their value */
function exactLogKde(samples: ArrayLike<number>, x: number, std: number): number {
  let top = -Infinity;
  for (let i = 0; i < samples.length; i++) top = Math.max(top, -0.5 * ((x - samples[i]!) / std) ** 2);
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += Math.exp(-0.5 * ((x - samples[i]!) / std) ** 2 - top);
  return top + Math.log(sum) - Math.log(samples.length) - Math.log(std) - 0.5 * Math.log(2 * Math.PI);
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** positions of a lap on a 200 cm track, with the middle 40 cm never visited */
function trackSamples(n: number, rand: () => number): Float64Array {
  return Float64Array.from({ length: n }, () => {
    const x = 200 * rand();
    return x > 80 && x < 120 ? x - 40 : x;
  });
}

describe('tabulationBounds', () => {
  it('are small at the cells the tabulation uses, and grow when the cells are made coarser', () => {
    const b = tabulationBounds();
    expect(b.near).toBeLessThan(1e-11);
    expect(b.far).toBeLessThan(1e-35);
    expect(b.lebesgue).toBeGreaterThan(2);
    expect(b.lebesgue).toBeLessThan(4);
    // the bound is a real function of the cells: half the nodes or twice the width lose many digits
    expect(tabulationBounds(CELL_NODES / 2, CELL_WIDTH).near).toBeGreaterThan(1e-6);
    expect(tabulationBounds(CELL_NODES, 2 * CELL_WIDTH).near).toBeGreaterThan(1e-3);
  });
});

describe('tabulatedLogKde', () => {
  const rand = seeded(7);
  const samples = trackSamples(20_000, rand);
  const std = 6;
  const padding = Float64Array.from({ length: 5000 }, (_, i) => (i * 200) / 5000);

  it('matches the pair-by-pair float64 KDE within its bound at every tabulated point', () => {
    const queries = Float64Array.from({ length: 3000 }, () => -30 + 260 * rand());
    const result = tabulatedLogKde(samples, queries, std)!;
    expect(result).not.toBeNull();
    const exact = new Set(result.exact);
    let worst = 0;
    for (let q = 0; q < queries.length; q++) {
      if (exact.has(q)) continue;
      worst = Math.max(worst, Math.abs(result.log[q]! - exactLogKde(samples, queries[q]!, std)));
    }
    expect(worst).toBeLessThan(2 * MAX_RELATIVE_ERROR);
    // inside the visited range nothing is left to the exact path
    for (const q of result.exact) expect(queries[q]! < 0 || queries[q]! > 200).toBe(true);
  });

  it('hands far tails to the exact path instead of returning an unbounded value', () => {
    // enough queries that tabulating pays
    const queries = Float64Array.of(100, 230, 2000, -1e4, ...padding);
    const result = tabulatedLogKde(samples, queries, std)!;
    expect(result.exact).toEqual([2, 3]);
    expect(result.log[0]).toBeCloseTo(exactLogKde(samples, 100, std), 6);
    expect(result.log[1]).toBeCloseTo(exactLogKde(samples, 230, std), 6);
  });

  it('gives NaN at NaN queries, leaves infinities to the exact path and refuses non-finite samples', () => {
    const result = tabulatedLogKde(samples, Float64Array.of(NaN, 10, Infinity, ...padding), std)!;
    expect(result.log[0]).toBeNaN();
    expect(result.exact).toEqual([2]);
    expect(tabulatedLogKde(Float64Array.of(1, NaN, ...samples), padding, std)).toBeNull();
  });

  it('is not used where evaluating every pair costs less, or with no samples', () => {
    expect(tabulatedLogKde(Float64Array.of(1, 2, 3), Float64Array.of(2), std)).toBeNull();
    expect(tabulatedLogKde(new Float64Array(0), Float64Array.of(2), std)).toBeNull();
  });

  it('is exact at sample positions that repeat (every sample in one place)', () => {
    const same = new Float64Array(50_000).fill(42.5);
    const queries = Float64Array.from({ length: 2000 }, (_, i) => 42.5 + (i - 1000) * 0.03);
    const result = tabulatedLogKde(same, queries, std)!;
    for (let q = 0; q < queries.length; q++) {
      expect(Math.abs(result.log[q]! - exactLogKde([42.5], queries[q]!, std))).toBeLessThan(2 * MAX_RELATIVE_ERROR);
    }
  });
});
