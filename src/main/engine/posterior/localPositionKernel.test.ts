import { describe, expect, it } from 'vitest';
import { denseTransition64 } from './transitions';
import { assembleLogLikelihood } from './logLikelihood';
import { buildStateSpace } from './stateSpace';
import type { PlaceGrid } from './grid';
import { GridBinIndex, gridGraphDistances, LocalPositionKernel } from './localPositionKernel';

/** nx × ny bins of 2 cm from (1, 1), x-major; `wall` lists (ix, iy) bins that are not interior. */
function grid2d(nx: number, ny: number, wall: Array<[number, number]> = []): PlaceGrid {
  const centers = new Float64Array(nx * ny * 2);
  const interior = new Uint8Array(nx * ny).fill(1);
  for (let ix = 0; ix < nx; ix++) {
    for (let iy = 0; iy < ny; iy++) {
      centers[(ix * ny + iy) * 2] = 1 + 2 * ix;
      centers[(ix * ny + iy) * 2 + 1] = 1 + 2 * iy;
    }
  }
  for (const [ix, iy] of wall) interior[ix * ny + iy] = 0;
  return { centers, interior, shape: [nx, ny] };
}

function grid1d(n: number, gaps: number[] = []): PlaceGrid {
  const interior = new Uint8Array(n).fill(1);
  for (const g of gaps) interior[g] = 0;
  return { centers: Float64Array.from({ length: n }, (_, i) => 0.5 + i), interior };
}

const interiorOf = (g: PlaceGrid) => Int32Array.from(Array.from(g.interior.keys()).filter((b) => g.interior[b]));

describe('the animal’s bin (NLD’s Environment.get_bin_ind)', () => {
  it('digitizes each axis between centres, upper cell on a split except the last, end bins beyond the ends', () => {
    const g = grid1d(4); // centres 0.5 1.5 2.5 3.5, splits 1 2 3
    const index = new GridBinIndex(g);
    expect([-5, 0.99, 1, 1.5, 2, 2.99, 3, 3.2, 100].map((x) => index.of([x]))).toEqual([0, 0, 1, 1, 2, 2, 2, 3, 3]);
    expect(index.of([NaN])).toBe(-1);
  });

  it('ravels x then y (C order) and snaps a bin that is not interior to the nearest interior centre', () => {
    const g = grid2d(4, 3, [[1, 1]]);
    const index = new GridBinIndex(g);
    expect(index.of([5.2, 3.1])).toBe(2 * 3 + 1);
    expect(index.of([-1, 9])).toBe(0 * 3 + 2);
    // (3.4, 3.0) lands in the wall bin (1, 1), centre (3, 3); the nearest interior centre is (5, 3), bin (2, 1)
    expect(index.of([3.4, 3.0])).toBe(2 * 3 + 1);
    expect(index.of([3, NaN])).toBe(-1);
  });
});

describe('distances along the grid (NLD’s graph of interior bins, each joined to its 3^d − 1 neighbours)', () => {
  it('are octile on an open field and go around a wall', () => {
    const open = grid2d(5, 5);
    const d = gridGraphDistances(open, interiorOf(open), 0);
    // to (3, 1): three diagonal-or-straight steps, one of them diagonal
    expect(d[3 * 5 + 1]).toBeCloseTo(2 * Math.SQRT2 + 2 * 2, 12);
    expect(d[4 * 5 + 4]).toBeCloseTo(4 * 2 * Math.SQRT2, 12);
    // a wall along x = 2 for y = 0..3: from (0, 0) to (4, 0) the path goes over its top at y = 4
    const walled = grid2d(5, 5, [[2, 0], [2, 1], [2, 2], [2, 3]]);
    const w = gridGraphDistances(walled, interiorOf(walled), 0);
    const k = Array.from(interiorOf(walled)).indexOf(4 * 5);
    // (0, 0) → (2, 4) is two diagonal and two straight steps, and (2, 4) → (4, 0) the same again
    expect(w[k]).toBeCloseTo(2 * (2 * 2 * Math.SQRT2 + 2 * 2), 12);
  });

  it('are infinite across a gap of a 1-D grid', () => {
    const g = grid1d(6, [3]);
    const d = gridGraphDistances(g, interiorOf(g), 1);
    expect(Array.from(d)).toEqual([1, 0, 1, Infinity, Infinity]);
  });
});

describe('the multi-bin Local state’s kernel', () => {
  const g = grid2d(6, 5, [[3, 2]]);
  const bins = interiorOf(g);
  const p = bins.length;

  it('puts log P in the animal’s bin and −∞ elsewhere for a std of 0, and 0 everywhere when the position is unknown', () => {
    const k = new LocalPositionKernel(g, bins, 0);
    const rows = k.rows(Float64Array.from([5.1, 3.0, NaN, NaN]), 2);
    const at = Array.from(bins).indexOf(2 * 5 + 1);
    expect(rows[at]).toBe(Math.fround(Math.log(p)));
    expect(Array.from(rows.subarray(0, p)).filter((v) => v === -Infinity)).toHaveLength(p - 1);
    expect(Array.from(rows.subarray(p))).toEqual(new Array(p).fill(0));
  });

  it('is a Gaussian of the grid distance for a positive std whose exponentials sum to P', () => {
    const std = 3;
    const k = new LocalPositionKernel(g, bins, std);
    const row = k.rows(Float64Array.from([1.2, 1.2]), 1);
    const total = Array.from(row).reduce((a, v) => a + Math.exp(v), 0);
    expect(total / p).toBeCloseTo(1, 5);
    const d = gridGraphDistances(g, bins, 0);
    // differences of the log kernel are differences of −d²/2σ²
    expect(row[5]! - row[0]!).toBeCloseTo(-0.5 * (d[5]! ** 2) / std ** 2, 4);
  });

  it('refuses a negative std', () => {
    expect(() => new LocalPositionKernel(g, bins, -1)).toThrow(/≥ 0/);
  });
});

describe('the detector with a multi-bin Local state', () => {
  const g = grid1d(8, [5]);
  const space = buildStateSpace('detector', g, { localPositionStd: 2 });
  const p = 7;

  it('gives Local every bin, uniform transitions in and out, and a uniform start over its bins', () => {
    expect(space.stateKinds).toEqual(['spatialLocal', 'noSpike', 'spatial', 'spatial']);
    expect(space.nStateBins).toBe(3 * 8 + 1);
    expect(space.nInteriorStateBins).toBe(3 * p + 1);
    const n = space.nInteriorStateBins;
    const a = denseTransition64(space);
    for (let i = 0; i < n; i++) {
      const sum = a.subarray(i * n, (i + 1) * n).reduce((x, y) => x + y, 0);
      expect(sum).toBeCloseTo(1, 12);
    }
    const d = space.discreteTransition;
    // Local → Local, and Non-Local Continuous → Local: each Local bin gets d / P
    expect(a[0 * n + 3]).toBeCloseTo(d[0]![0]! / p, 15);
    expect(a[space.stateStart[2]! * n + 4]).toBeCloseTo(d[2]![0]! / p, 15);
    // Local → No-Spike: the whole discrete probability, from every Local bin
    expect(a[2 * n + space.stateStart[1]!]).toBeCloseTo(d[0]![1]!, 15);
    expect(space.initial[0]).toBeCloseTo(space.discreteInitial[0]! / p, 7);
  });

  it('adds the kernel to the non-local likelihood in the Local columns only', () => {
    const nonLocal = Float32Array.from({ length: 2 * p }, (_, i) => -i);
    const kernel = Float32Array.from({ length: 2 * p }, (_, i) => 0.5 * i);
    const ll = assembleLogLikelihood(space, 2, { nonLocal, noSpike: Float32Array.from([-3, -4]), localKernel: kernel });
    const n = space.nInteriorStateBins;
    expect(ll[n + 2]).toBe(Math.fround(-(p + 2) + 0.5 * (p + 2)));
    expect(ll[n + space.stateStart[2]! + 2]).toBe(-(p + 2));
    expect(() => assembleLogLikelihood(space, 2, { nonLocal, noSpike: Float32Array.from([-3, -4]) })).toThrow(/position kernel/);
  });

  it('is the detector’s only: the decoder has no Local state', () => {
    expect(() => buildStateSpace('decoder', g, { localPositionStd: 1 })).toThrow(/no Local state/);
  });
});
