import { describe, expect, it } from 'vitest';
import { buildPlaceGrid2d } from '../../data';
import { denseTransition64 } from './transitions';
import { expandStructured } from './structuredTransition';
import { filterSmooth } from './filterSmooth';
import { mapPosition } from './outputs';
import { buildStateSpace } from './stateSpace';
import type { PlaceGrid } from './grid';
import { maxAbsDiff } from './testing';
import { transitionProduct } from './transitionProducts';

/** a small deterministic generator, so a failure repeats */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An open field of 40 × 30 cm with a 12 × 10 cm block the animal never enters, binned at 2.5 cm. */
function arenaGrid(): PlaceGrid {
  const rand = random(5);
  const xy: number[] = [];
  while (xy.length < 2 * 4000) {
    const x = rand() * 40;
    const y = rand() * 30;
    if (x > 14 && x < 26 && y > 10 && y < 20) continue;
    xy.push(x, y);
  }
  const grid = buildPlaceGrid2d(Float64Array.from(xy), 2.5);
  return { centers: grid.centers, interior: grid.interior, shape: grid.shape };
}

function logLikelihood(rows: number, bins: number, seed: number): Float32Array {
  const rand = random(seed);
  return Float32Array.from({ length: rows * bins }, () => -20 * rand());
}

describe('the 2-D posterior (posterior-spec §2b)', () => {
  const grid = arenaGrid();

  it('builds the 2-D random walk as the masked, row-normalised isotropic Gaussian, and its structure is that float32 matrix', () => {
    const space = buildStateSpace('decoder', grid);
    const n = space.nInteriorStateBins;
    const dense64 = denseTransition64(space);
    const [nx, ny] = grid.shape as [number, number];
    // a row from scipy's pdf by hand: the interior bins it reaches, divided by their sum
    const from = space.interiorBins[Math.floor(n / 2)]!;
    const row = new Float64Array(n);
    space.interiorBins.forEach((b, k) => {
      const dx = grid.centers[b * 2]! - grid.centers[from * 2]!;
      const dy = grid.centers[b * 2 + 1]! - grid.centers[from * 2 + 1]!;
      row[k] = Math.exp(-0.5 * (dx * dx + dy * dy) / space.movementVar) / (2 * Math.PI * space.movementVar);
    });
    const sum = row.reduce((a, b) => a + b, 0);
    const i = Math.floor(n / 2);
    const worst = Math.max(...Array.from(row, (v, k) => Math.abs(v / sum - dense64[i * n + k]!)));
    expect(worst).toBeLessThan(1e-15);
    expect(nx * ny).toBe(space.nBins);
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += dense64[r * n + k]!;
      expect(s).toBeCloseTo(1, 12);
    }
    // the separable convolution stands for the float32 matrix, to float32 rounding
    const structured = space.transitions.structured;
    expect(structured.blocks.map((b) => b.kind)).toEqual(['convolution']);
    expect(maxAbsDiff(expandStructured(structured), space.transitions.dense)).toBeLessThan(1e-7);
  });

  it('gives the same products structured and dense, forward and backward, for the decoder and the detector', () => {
    for (const model of ['decoder', 'detector'] as const) {
      const space = buildStateSpace(model, grid);
      const n = space.nInteriorStateBins;
      const rand = random(11);
      const f = Float32Array.from({ length: n }, () => rand());
      const r = Float64Array.from({ length: n }, () => rand());
      const out = { dense: new Float64Array(n), structured: new Float64Array(n) };
      const back = { dense: new Float64Array(n), structured: new Float64Array(n) };
      for (const method of ['dense', 'structured'] as const) {
        const product = transitionProduct(space, method);
        product.forward(f, 0, out[method]);
        product.backward(r, back[method]);
      }
      expect(maxAbsDiff(out.structured, out.dense)).toBeLessThan(1e-6 * Math.max(...out.dense));
      expect(maxAbsDiff(back.structured, back.dense)).toBeLessThan(1e-6 * Math.max(...back.dense));
    }
  });

  it('filters and smooths on the 2-D grid with structured within 1e-6 of dense, and maps x and y', () => {
    for (const model of ['decoder', 'detector'] as const) {
      const space = buildStateSpace(model, grid);
      const rows = 40;
      const ll = logLikelihood(rows, space.nInteriorStateBins, model === 'decoder' ? 3 : 4);
      const dense = filterSmooth(space, ll, rows, 'dense');
      const structured = filterSmooth(space, ll, rows, 'structured');
      expect(maxAbsDiff(structured.acausal, dense.acausal)).toBeLessThan(1e-6);
      expect(maxAbsDiff(structured.causal, dense.causal)).toBeLessThan(1e-6);
      expect(Math.abs(structured.marginalLogLikelihood - dense.marginalLogLikelihood)).toBeLessThan(1e-6 * Math.abs(dense.marginalLogLikelihood));
      const map = mapPosition(space, structured.acausal, rows);
      expect(map.length).toBe(2 * rows);
      for (let t = 0; t < rows; t++) {
        const x = map[2 * t]!;
        const y = map[2 * t + 1]!;
        if (Number.isNaN(x)) continue;
        const bin = space.interiorBins.findIndex((b) => grid.centers[b * 2] === x && grid.centers[b * 2 + 1] === y);
        expect(bin).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('refuses a grid whose centres, flags and shape disagree', () => {
    expect(() => buildStateSpace('decoder', { ...grid, shape: [3, 3] })).toThrow(/shape 3 × 3 does not hold/);
    expect(() => buildStateSpace('decoder', { ...grid, interior: grid.interior.subarray(1) })).toThrow(/interior flags/);
  });
});
