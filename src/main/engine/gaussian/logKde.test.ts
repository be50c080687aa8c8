import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { onGrid as kdeOnGrid } from '../ops/linearPositionKernel';
import { KDE_PART_SAMPLES, logKde, logKdeWorkOf } from './logKde';
import { addWork, gridKdeWork, logKdeWork } from '../model/opWork';
import { hasWasmKernels, installWasmKernels } from '../simd';
import { rng } from '../testing/builders';

/** log[(1/n) Σ_i N(x; s_i, σ)] in float64, by its definition with a log-sum-exp */
function logKdeByDefinition(samples: Float64Array, points: Float64Array, q: number, std: number[]): Float64Array {
  const n = samples.length / q;
  const m = points.length / q;
  const logNorm = -std.reduce((acc, s) => acc + Math.log(s * Math.sqrt(2 * Math.PI)), 0);
  return Float64Array.from({ length: m }, (_, k) => {
    const logs = Array.from({ length: n }, (_, i) => {
      let sq = 0;
      for (let j = 0; j < q; j++) sq += ((points[k * q + j]! - samples[i * q + j]!) / std[j]!) ** 2;
      return logNorm - sq / 2;
    });
    const top = Math.max(...logs);
    return top + Math.log(logs.reduce((acc, l) => acc + Math.exp(l - top), 0)) - Math.log(n);
  });
}

describe('logKde on the wasm kernels', () => {
  beforeAll(async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    installWasmKernels();
  });

  it('matches the float64 definition over several parts, far points with their tiny density, NaN points NaN', async () => {
    expect(hasWasmKernels()).toBe(true);
    const r = rng(5);
    for (const [q, n, m] of [[1, KDE_PART_SAMPLES * 2 + 300, 37], [2, 700, 9], [1, 5, 4]] as const) {
      const samples = Float64Array.from({ length: n * q }, () => 100 * r());
      const points = Float64Array.from({ length: m * q }, () => 100 * r());
      // a point ~40 widths from every sample: its density is ~e^−800, far below float32, and still finite in log
      points[0] = 300;
      if (m > 5) points[q * 3] = NaN;
      const std = Array(q).fill(5) as number[];
      const got = await logKde(samples, points, q, std);
      // float32 sums: ~1e-6 of the density; the far point's maximum is a float32 near −800, within 1.2e-7 of it
      const want = logKdeByDefinition(samples, points, q, std);
      for (let k = 0; k < m; k++) {
        if (Number.isNaN(want[k]!)) expect(got[k], `q=${q} point ${k}`).toBeNaN();
        else expect(Math.abs(got[k]! - want[k]!), `q=${q} n=${n} point ${k}: ${got[k]} vs ${want[k]}`).toBeLessThan(1e-5 + 1.2e-7 * Math.abs(want[k]!));
      }
      expect(want[0]).toBeLessThan(-700);
    }
  });

  it('takes evenly spaced bins through the grid kernels, counts their work as such, and takes other bins and far samples the exp way', async () => {
    const r = rng(11);
    const n = KDE_PART_SAMPLES + 500;
    const std = [3.5];
    const grid = Float64Array.from({ length: 200 }, (_, k) => 0.25 + 0.5 * k);
    const samples = Float64Array.from({ length: n }, () => 100 * r());
    const moved = Float64Array.from(grid);
    moved[50] = moved[50]! + 0.2;
    // one sample ~60 widths past the grid: its row would underflow float64 at the far end
    const far = Float64Array.from(samples);
    far[7] = 300;
    // per part of the sum: whether the grid kernels take it (the far sample is in the first part only)
    for (const [points, data, partsOnGrid, at] of [[grid, samples, [true, true], 'grid'], [moved, samples, [false, false], 'moved bin'], [grid, far, [false, true], 'far sample']] as const) {
      expect(kdeOnGrid(data, points, 1, std), at).toBe(partsOnGrid.every(Boolean));
      const parts = [KDE_PART_SAMPLES, n - KDE_PART_SAMPLES];
      const want = addWork(...parts.map((c, i) => (partsOnGrid[i] ? gridKdeWork(c, points.length, false) : logKdeWork(c, points.length, 1))));
      expect(logKdeWorkOf(data, points, 1, std), at).toEqual(want);
      const got = await logKde(data, points, 1, std);
      const exact = logKdeByDefinition(data, points, 1, std);
      for (let k = 0; k < points.length; k++) expect(Math.abs(got[k]! - exact[k]!), `${at} bin ${k}`).toBeLessThan(1e-5);
    }
  });
});
