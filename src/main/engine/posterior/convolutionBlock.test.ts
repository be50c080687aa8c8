import { describe, expect, it } from 'vitest';
import { filterSmooth } from './filterSmooth';
import { buildStateSpace } from './stateSpace';
import type { StateSpace } from './stateSpaceTypes';
import { transitionProduct } from './transitionProducts';

/** A fine grid (0.1 position units a bin): the random walk's σ of 2.45 spans ±490 bins within reach; `gap` bins off the track. */
function fineGrid(bins: number, gap: [number, number] = [0, 0]) {
  const interior = Uint8Array.from({ length: bins }, (_, j) => (j >= gap[0] && j < gap[1] ? 0 : 1));
  return { centers: Float64Array.from({ length: bins }, (_, j) => 0.05 + 0.1 * j), interior };
}

/** a deterministic distribution over the state bins, peaked somewhere with a long flat tail */
function distribution(n: number, peak: number): Float32Array {
  const f = Float32Array.from({ length: n }, (_, k) => Math.exp(-0.5 * ((k - peak) / 30) ** 2) + 1e-6 * ((k * 7919) % 13));
  const total = f.reduce((a, b) => a + b, 0);
  return f.map((v) => v / total);
}

function worstRelative(a: Float64Array, b: Float64Array): number {
  const scale = Math.max(...b.map(Math.abs));
  return Math.max(...a.map((v, k) => Math.abs(v - b[k]!))) / scale;
}

function productsAgree(space: StateSpace): void {
  const n = space.nInteriorStateBins;
  const dense = transitionProduct(space, 'dense');
  const structured = transitionProduct(space, 'structured');
  const f = distribution(n, n / 3);
  const [want, got] = [new Float64Array(n), new Float64Array(n)];
  dense.forward(f, 0, want);
  structured.forward(f, 0, got);
  expect(worstRelative(got, want)).toBeLessThan(1e-6);
  const r = Float64Array.from(distribution(n, (2 * n) / 3), (v, k) => v * (1 + (k % 5)));
  dense.backward(r, want);
  structured.backward(r, got);
  expect(worstRelative(got, want)).toBeLessThan(1e-6);
}

describe('a random-walk block as a convolution', () => {
  it('is taken on a fine uniform grid, and not where the band is narrow or the grid uneven', () => {
    const kinds = (space: StateSpace) => space.transitions.structured.blocks.map((b) => b.kind).filter((k) => k !== 'rankOne');
    expect(kinds(buildStateSpace('decoder', fineGrid(1500)))).toEqual(['convolution']);
    expect(kinds(buildStateSpace('detector', fineGrid(800)))).toEqual(['convolution']);
    const coarse = { centers: Float64Array.from({ length: 1500 }, (_, j) => 1 + 2 * j), interior: new Uint8Array(1500).fill(1) };
    expect(kinds(buildStateSpace('decoder', coarse))).toEqual(['band']);
    const uneven = fineGrid(1500);
    uneven.centers[700] = uneven.centers[700]! + 0.03;
    expect(kinds(buildStateSpace('decoder', uneven))).toEqual(['band']);
  });

  it("gives the dense float32 matrix's products to float32 rounding, bins off the track included", () => {
    productsAgree(buildStateSpace('decoder', fineGrid(1500, [600, 640])));
    productsAgree(buildStateSpace('detector', fineGrid(800, [100, 130])));
  });

  it("filters and smooths as the dense matrix does", () => {
    const space = buildStateSpace('detector', fineGrid(700));
    const n = space.nInteriorStateBins;
    const rows = 40;
    // a likelihood whose peak walks along the track, as a decoded run gives
    const ll = Float32Array.from({ length: rows * n }, (_, i) => {
      const [t, k] = [Math.floor(i / n), i % n];
      return -0.5 * ((k - 2 - ((100 + 8 * t) % 700)) / 20) ** 2;
    });
    const dense = filterSmooth(space, ll, rows, 'dense');
    const structured = filterSmooth(space, ll, rows, 'structured');
    const worst = (a: Float32Array, b: Float32Array) => Math.max(...a.map((v, k) => Math.abs(v - b[k]!)));
    expect(worst(structured.acausal, dense.acausal)).toBeLessThan(1e-6);
    expect(worst(structured.causal, dense.causal)).toBeLessThan(1e-6);
    expect(structured.marginalLogLikelihood).toBeCloseTo(dense.marginalLogLikelihood, 4);
  });
});
