import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BIAS_FLOOR_KERNEL, COLUMN_SCALED_EXP_KERNEL, COMPENSATED_WEIGHTS_KERNEL, EXP_FLUSHED_KERNEL, GAUSS_KERNEL, KDE_COLUMN_SUMS_KERNEL,
  LINEAR_POSITION_KERNEL, PACK_PANELS_KERNEL, POSITION_FACTOR_ROWS_KERNEL,
  SCALED_CHUNK_PRODUCT_KERNEL, SERIES_FACTOR_KERNEL, SERIES_GROUND_FACTOR_KERNEL, SERIES_TERMS_KERNEL,
} from '../kernels';
import { hasWasmKernels, installWasmKernels } from './index';
import { uniformGridOf } from './uniformGrid';

/** distance in units in the last place between two float32 values of the same sign */
function ulps(a: number, b: number): number {
  const f = new Float32Array([a, b]);
  const i = new Int32Array(f.buffer);
  return Math.abs(i[0]! - i[1]!);
}

function maxUlps(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, ulps(got[i]!, want[i]!));
  return worst;
}

function sweep(n: number, lo: number, hi: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
}

/** the op graph the Gaussian kernel replaces, as the gaussianKernelMatrix op runs it on every other backend */
function opGraphLogKernel(a: tf.Tensor2D, b: tf.Tensor2D, c: number): tf.Tensor2D {
  return tf.tidy(() => tf.add(tf.mul(tf.sum(tf.squaredDifference(tf.expandDims(a, 1), tf.expandDims(b, 0)), 2), -0.5), c) as tf.Tensor2D);
}

function gaussKernel(a: tf.Tensor2D, b: tf.Tensor2D, c: number, linear: boolean): tf.Tensor2D {
  return tf.tidy(() => tf.engine().runKernel(GAUSS_KERNEL, { a, bt: tf.transpose(b) }, { c, linear } as unknown as tf.NamedAttrMap) as tf.Tensor2D);
}

describe('engine SIMD kernels on the wasm backend', () => {
  beforeAll(async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    installWasmKernels();
  });

  it('is installed once and says so', () => {
    installWasmKernels();
    expect(hasWasmKernels()).toBe(true);
  });

  it('computes exp within one ulp of the float64 exp over the whole float32 range, subnormal results included', () => {
    const xs = sweep(200_003, -104, 88.7);
    const got = tf.exp(tf.tensor1d(xs)).dataSync();
    expect(maxUlps(got, xs.map((x) => Math.exp(x)))).toBeLessThanOrEqual(1);
    // the subnormal range is where a careless 2^n underflows twice or flushes to zero
    const tiny = sweep(10_001, -103.9, -87.4);
    const gotTiny = tf.exp(tf.tensor1d(tiny)).dataSync();
    expect(maxUlps(gotTiny, tiny.map((x) => Math.exp(x)))).toBeLessThanOrEqual(1);
    expect(gotTiny.every((v) => v > 0)).toBe(true);
  });

  it('gives the flushed exp the bits of the general exp where the result is kept, 0 below the flush, NaN as NaN', () => {
    const flush = 2 ** -63;
    // across the flush (ln 2^−63 ≈ −43.67), a length that is not whole vectors, and a NaN
    const x = Float32Array.from([...sweep(1001, -60, 0), NaN]);
    const got = (tf.engine().runKernel(EXP_FLUSHED_KERNEL, { x: tf.tensor1d(x) }, { flush } as unknown as tf.NamedAttrMap) as tf.Tensor).dataSync();
    const general = tf.exp(tf.tensor1d(x)).dataSync();
    let dropped = 0;
    for (let i = 0; i < x.length - 1; i++) {
      if (general[i]! < flush) {
        expect(got[i], `x=${x[i]}`).toBe(0);
        dropped++;
      } else {
        expect(got[i], `x=${x[i]}`).toBe(general[i]);
      }
    }
    expect(dropped).toBeGreaterThan(200);
    expect(got[x.length - 1]).toBeNaN();
  });

  it('gives exp the special values of libm: NaN, ±inf, ±0 and the ends of the range', () => {
    const got = Array.from(tf.exp(tf.tensor1d([NaN, Infinity, -Infinity, 0, -0, 89, 88.7, -104, -110, -1e30, 1e30])).dataSync());
    expect(got[0]).toBeNaN();
    const f32exp = (x: number) => Math.fround(Math.exp(Math.fround(x)));
    expect(got.slice(1)).toEqual([Infinity, 0, 1, 1, Infinity, f32exp(88.7), f32exp(-104), 0, 0, Infinity]);
  });

  it('computes log within one ulp, subnormal inputs included, with log 0 = −inf and NaN below 0', () => {
    const xs = Float32Array.from({ length: 100_003 }, (_, i) => Math.exp(-103 + (191 * i) / 100_002));
    const got = tf.log(tf.tensor1d(xs)).dataSync();
    expect(maxUlps(got, Array.from(xs, (x) => Math.log(x)))).toBeLessThanOrEqual(1);
    const special = Array.from(tf.log(tf.tensor1d([0, -0, -1, NaN, Infinity, -Infinity, 1, 1e-45])).dataSync());
    expect(special.slice(0, 2)).toEqual([-Infinity, -Infinity]);
    expect(special[2]).toBeNaN();
    expect(special[3]).toBeNaN();
    expect(special[4]).toBe(Infinity);
    expect(special[5]).toBeNaN();
    expect(special[6]).toBe(0);
    // 1e-45 is the smallest subnormal, 2^−149
    expect(special[7]).toBe(Math.fround(-149 * Math.LN2));
  });

  it('handles lengths that are not whole vectors, fewer than four elements, and other dtypes', () => {
    for (const n of [1, 2, 3, 4, 5, 7, 9, 17]) {
      const xs = sweep(n + 1, -3, 3).subarray(0, n);
      expect(maxUlps(tf.exp(tf.tensor1d(xs)).dataSync(), xs.map((x) => Math.exp(x)))).toBeLessThanOrEqual(1);
      const pos = xs.map((x) => Math.exp(x));
      expect(maxUlps(tf.log(tf.tensor1d(pos)).dataSync(), Array.from(pos, (x) => Math.log(x)))).toBeLessThanOrEqual(1);
    }
    expect(Array.from(tf.exp(tf.tensor1d([0, 1], 'int32')).dataSync())).toEqual([1, Math.fround(Math.E)]);
    expect(tf.exp(tf.tensor1d([])).shape).toEqual([0]);
  });

  it('builds the log Gaussian kernel with the bits of the op graph it replaces, for any width and dimension', () => {
    for (const [n, m, d] of [[5, 4, 1], [3, 7, 2], [6, 13, 5], [1, 1, 1], [4, 3, 4], [2, 2000, 1], [4, 9, 3], [2, 10, 2]] as const) {
      const a = tf.randomNormal([n, d], 0, 3, 'float32', 7) as tf.Tensor2D;
      const b = tf.randomNormal([m, d], 0, 3, 'float32', 11) as tf.Tensor2D;
      const want = opGraphLogKernel(a, b, -2.25).dataSync();
      const got = gaussKernel(a, b, -2.25, false).dataSync();
      expect(Array.from(got), `n=${n} m=${m} d=${d}`).toEqual(Array.from(want));
    }
  });

  it('builds the linear Gaussian kernel as exp of the log kernel, far pairs underflowing to exactly 0', () => {
    for (const [n, m] of [[5, 9], [3, 3], [8, 64]] as const) {
      const a = tf.tensor2d(sweep(n, 0, 100), [n, 1]);
      const b = tf.tensor2d(sweep(m, 0, 100), [m, 1]);
      const logK = opGraphLogKernel(a, b, -1.5);
      const got = gaussKernel(a, b, -1.5, true).dataSync();
      expect(Array.from(got)).toEqual(Array.from(tf.exp(logK).dataSync()));
      expect(maxUlps(got, Array.from(logK.dataSync(), (v) => Math.exp(v)))).toBeLessThanOrEqual(1);
      if (n === 8) expect(got.some((v) => v === 0)).toBe(true);
    }
  });

  it('rescales the position kernel by column: max, rescaled sum and kernel as the op graph computes them', () => {
    for (const [n, m] of [[40, 4], [33, 7], [17, 50], [1, 5]] as const) {
      const logK = tf.tensor2d(Float32Array.from({ length: n * m }, (_, i) => -((i * 7919) % 613) / 5), [n, m]);
      const [kernel, colMax, colSum] = tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: logK }, {}) as tf.Tensor[];
      const wantMax = tf.max(logK, 0);
      const scaled = tf.exp(tf.sub(logK, wantMax));
      expect(Array.from(colMax!.dataSync()), `max n=${n} m=${m}`).toEqual(Array.from(wantMax.dataSync()));
      expect(Array.from(kernel!.dataSync()), `kernel n=${n} m=${m}`).toEqual(Array.from(tf.mul(scaled, tf.exp(wantMax)).dataSync()));
      const sums = colSum!.dataSync();
      const want = tf.sum(scaled, 0).dataSync();
      for (let j = 0; j < m; j++) expect(sums[j], `sum n=${n} m=${m} j=${j}`).toBeCloseTo(want[j]!, 5);
    }
  });

  it('flushes the rescaled position kernel below the threshold and leaves every other entry, the maxima and the kept sums as they were', () => {
    // entries from 0 down to −122 below their column's maximum: some below 2^−63 (−43.7), some subnormal
    const [n, m] = [300, 7];
    const logK = tf.tensor2d(Float32Array.from({ length: n * m }, (_, i) => -((i * 7919) % 613) / 5), [n, m]);
    const run = (flush: number) => tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: logK }, { flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
    const [plain, plainMax, plainSum] = run(0);
    const threshold = 2 ** -63;
    const [flushed, flushedMax, flushedSum] = run(threshold);
    expect(Array.from(flushedMax!.dataSync())).toEqual(Array.from(plainMax!.dataSync()));
    const [p, f, mx] = [plain!.dataSync(), flushed!.dataSync(), plainMax!.dataSync()];
    let zeroed = 0;
    for (let i = 0; i < p.length; i++) {
      const scaled = p[i]! / Math.exp(mx[i % m]!);
      if (scaled < threshold * (1 - 1e-6)) {
        expect(f[i], `entry ${i}`).toBe(0);
        if (p[i]! > 0) zeroed++;
      } else if (scaled > threshold * (1 + 1e-6)) expect(f[i], `entry ${i}`).toBe(p[i]);
    }
    expect(zeroed).toBeGreaterThan(0);
    // each column's sum is at least 1, so what was dropped is below its rounding
    expect(Array.from(flushedSum!.dataSync())).toEqual(Array.from(plainSum!.dataSync()));
  });

  it('gives an electrode without spikes the empty column max (−inf) and sum (0)', () => {
    const [kernel, colMax, colSum] = tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: tf.zeros([0, 6]) }, {}) as tf.Tensor[];
    expect(kernel!.shape).toEqual([0, 6]);
    expect(Array.from(colMax!.dataSync())).toEqual(Array(6).fill(-Infinity));
    expect(Array.from(colSum!.dataSync())).toEqual(Array(6).fill(0));
  });

  it('forms the compensated weights exp(logKmark + a − max) and C* with the bits of that op graph, tetrode marks and other widths', () => {
    for (const [n, m, d] of [[5, 4, 2], [7, 13, 4], [1, 6, 1], [12, 41, 3], [9, 4, 4], [3, 64, 4], [4, 10, 5]] as const) {
      const a = tf.randomNormal([n, d], 0, 2, 'float32', n) as tf.Tensor2D;
      const b = tf.randomNormal([m, d], 0, 2, 'float32', m) as tf.Tensor2D;
      const rowMax = tf.randomUniform([m], -20, -1, 'float32', d);
      const c = -3.5;
      const logE = Math.log(m);
      const [w, scale] = tf.engine().runKernel(
        COMPENSATED_WEIGHTS_KERNEL, { a, bt: tf.transpose(b), rowMax }, { c, logE } as unknown as tf.NamedAttrMap,
      ) as tf.Tensor[];
      // the spec's exp(logKmark − b)·exp(c − C*) with b cancelled: exp(t − max t), t = logKmark + a, C* = max t − log E
      const t = tf.add(opGraphLogKernel(a, b, c), tf.reshape(rowMax, [1, -1]));
      const top = tf.max(t);
      const wantScale = tf.sub(top, logE);
      const want = tf.exp(tf.sub(t, top));
      expect(scale!.shape).toEqual([]);
      expect(scale!.dataSync()[0], `n=${n} m=${m}`).toBe(wantScale.dataSync()[0]);
      expect(Array.from(w!.dataSync()), `n=${n} m=${m} d=${d}`).toEqual(Array.from(want.dataSync()));
    }
  });

  it('forms the series factor ψᵀ·K in float64-close sums, widths that are not whole vectors included', () => {
    for (const [e, m, f] of [[1, 4, 4], [9, 7, 8], [300, 37, 12], [0, 5, 4], [40, 70, 8], [3, 64, 4]] as const) {
      const psi = tf.randomNormal([e, f], 0, 1, 'float32', e + f) as tf.Tensor2D;
      const kpos = tf.randomUniform([e, m], 0, 1, 'float32', m) as tf.Tensor2D;
      const got = (tf.engine().runKernel(SERIES_FACTOR_KERNEL, { psi, kpos }, {}) as tf.Tensor).dataSync();
      const [p, k] = [psi.dataSync(), kpos.dataSync()];
      for (let a = 0; a < f; a++) {
        for (let j = 0; j < m; j++) {
          let want = 0;
          let scale = 0;
          for (let i = 0; i < e; i++) {
            want += p[i * f + a]! * k[i * m + j]!;
            scale += Math.abs(p[i * f + a]! * k[i * m + j]!);
          }
          expect(Math.abs(got[a * m + j]! - want), `e=${e} m=${m} f=${f} α=${a} j=${j}`).toBeLessThanOrEqual(1e-6 * (scale + 1e-30) * Math.max(1, e));
        }
      }
    }
    expect(() => tf.engine().runKernel(SERIES_FACTOR_KERNEL, { psi: tf.zeros([3, 5]), kpos: tf.zeros([3, 8]) }, {})).toThrow(/multiple of 4/);
  });

  it('takes one-dimensional column maxima from the nearest sample with the bits of a pass over every row: ties, duplicates, far points', () => {
    // samples on the points, symmetric pairs about them (ties), duplicates, pairs a float32 ulp apart, one far away
    const points = Float32Array.from([0, 1, 2.5, 3, 1e-30, 7.25, 40, -3]);
    const samples = Float32Array.from([1, 1, 0.75, 1.25, 2.5, 2.5, 3 + 2 ** -22, 3 - 2 ** -22, Math.fround(1e-30) * 3, 5, 9.5, 1000, -3.5, -2.5]);
    const c = -0.918938;
    for (const parts of [[samples.length], [5, 9], [1, 13]]) {
      const a = tf.tensor2d(samples, [samples.length, 1]);
      const bt = tf.tensor2d(points, [1, points.length]);
      const [colMax] = tf.engine().runKernel(KDE_COLUMN_SUMS_KERNEL, { a, bt }, { c, partRows: parts } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const got = colMax!.dataSync();
      let first = 0;
      parts.forEach((count, k) => {
        // the same part's log kernel in full, then its column maxima from every row
        const logK = gaussKernel(tf.tensor2d(samples.subarray(first, first + count), [count, 1]), tf.tensor2d(points, [points.length, 1]), c, false);
        const want = tf.max(logK, 0).dataSync();
        expect([...got.subarray(k * points.length, (k + 1) * points.length)], `parts ${parts.join(", ")} part ${k}`).toEqual([...want]);
        first += count;
      });
    }
  });

  it('fits a series electrode in one pass with the bits of the column-scaled kernel then the series factor, kernel never stored', () => {
    // rows that are not whole tiles of 16, more than one 256-row partial sum, positions in 1 and 2 dimensions, with and without the flush
    for (const [n, q, m, f, flush] of [[1, 1, 4, 4, 0], [37, 1, 20, 8, 0], [300, 1, 64, 12, 2 ** -40], [70, 2, 12, 4, 0], [530, 1, 100, 16, 2 ** -40]] as const) {
      const a = tf.randomUniform([n, q], 0, 30, 'float32', n + q) as tf.Tensor2D;
      const b = tf.randomUniform([m, q], 0, 30, 'float32', m + f) as tf.Tensor2D;
      const psi = tf.randomNormal([n, f], 0, 1, 'float32', n * f) as tf.Tensor2D;
      const c = -1.5;
      const bt = tf.transpose(b);
      const [colMax, colSum, w] = tf.engine().runKernel(SERIES_GROUND_FACTOR_KERNEL, { a, bt, psi }, { c, flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const logK = gaussKernel(a, b, c, false);
      const [kernel, wantMax, wantSum] = tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: logK }, { flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const wantW = tf.engine().runKernel(SERIES_FACTOR_KERNEL, { psi, kpos: kernel! }, {}) as tf.Tensor;
      const at = `n=${n} q=${q} m=${m} f=${f} flush=${flush}`;
      // the linear position kernel off the grid: the log kernel's column-scaled exp, in one call
      const lp = tf.engine().runKernel(LINEAR_POSITION_KERNEL, { a, bt }, { c, flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      [kernel!, wantMax!, wantSum!].forEach((want, k) => expect([...lp[k]!.dataSync()], `${at} output ${k}`).toEqual([...want.dataSync()]));
      tf.dispose(lp);
      expect([...colMax!.dataSync()], at).toEqual([...wantMax!.dataSync()]);
      expect([...colSum!.dataSync()], at).toEqual([...wantSum!.dataSync()]);
      expect([...w!.dataSync()], at).toEqual([...wantW.dataSync()]);
      tf.dispose([a, b, bt, psi, colMax!, colSum!, w!, logK, kernel!, wantMax!, wantSum!, wantW]);
    }
    const bad = { a: tf.zeros([3, 1]), bt: tf.zeros([1, 6]), psi: tf.zeros([3, 4]) };
    expect(() => tf.engine().runKernel(SERIES_GROUND_FACTOR_KERNEL, bad, { c: 0, flush: 0 } as unknown as tf.NamedAttrMap)).toThrow(/multiples of 4/);
  });

  it('fits a series electrode and sums a KDE on evenly spaced bins within float32 rounding of float64 (no exp per entry)', () => {
    // positions over the widths; bins as the engine scales them (float32 centre · float32 1/width)
    // the last case spans 120 widths: rows far from an end take a window of the grid
    for (const [n, m, f, flush, spacing] of [[37, 20, 8, 0, 0.5], [530, 100, 12, 2 ** -40, 0.3], [2000, 1000, 4, 2 ** -63, 0.028], [1500, 2000, 4, 2 ** -63, 0.06]] as const) {
      const inv = Math.fround(1 / 1.7);
      const centres = Float32Array.from({ length: m }, (_, k) => Math.fround(Math.fround(0.2 + k * spacing * 1.7) * inv));
      const grid = uniformGridOf(centres)!;
      expect(grid).not.toBeNull();
      const extent = (m - 1) * grid.step;
      const a = tf.randomUniform([n, 1], m === 2000 ? 0 : -0.1 * extent, m === 2000 ? extent : 1.1 * extent, 'float32', n + m) as tf.Tensor2D;
      const psi = tf.randomNormal([n, f], 0, 1, 'float32', n * f) as tf.Tensor2D;
      const bt = tf.tensor2d(centres, [1, m]);
      const c = -1.5;
      const at = `n=${n} m=${m} f=${f} flush=${flush}`;
      const [colMax, colSum, w] = tf.engine().runKernel(SERIES_GROUND_FACTOR_KERNEL, { a, bt, psi }, { c, flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const [kdeMax, kdeSum] = tf.engine().runKernel(KDE_COLUMN_SUMS_KERNEL, { a, bt }, { c, partRows: [n] } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const [kernel, lpMax, lpSum] = tf.engine().runKernel(LINEAR_POSITION_KERNEL, { a, bt }, { c, flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const lpW = tf.engine().runKernel(SERIES_FACTOR_KERNEL, { psi, kpos: kernel! }, {}) as tf.Tensor;
      const [aHost, psiHost, mx, sm, wGot, kdeSm] = [a, psi, colMax!, colSum!, w!, kdeSum!].map((t) => t.dataSync()) as Float32Array[];
      // one set of numbers whichever way a fit gets them: the KDE's sums, the kernel it keeps, the series factor
      expect([...kdeMax!.dataSync()], at).toEqual([...mx!]);
      expect([...lpMax!.dataSync()], at).toEqual([...mx!]);
      expect([...kdeSm!], at).toEqual([...sm!]);
      expect([...lpSum!.dataSync()], at).toEqual([...sm!]);
      expect([...lpW.dataSync()], at).toEqual([...wGot!]);
      // float64 on the grid through the first and last bin, with the exp path's flush
      const z = (i: number, k: number): number => c - 0.5 * (aHost![i]! - grid.start - k * grid.step) ** 2;
      let worstSum = 0;
      let worstW = 0;
      for (let k = 0; k < m; k++) {
        let sum = 0;
        const wK = new Float64Array(f);
        const wScale = new Float64Array(f);
        for (let i = 0; i < n; i++) {
          const s = Math.exp(z(i, k) - mx![k]!);
          sum += s;
          // the kernel's entries (not its sums) are flushed
          const g = s >= flush ? Math.exp(z(i, k)) : 0;
          for (let j = 0; j < f; j++) {
            wK[j]! += psiHost![i * f + j]! * g;
            wScale[j]! += Math.abs(psiHost![i * f + j]!) * Math.exp(z(i, k));
          }
        }
        worstSum = Math.max(worstSum, Math.abs(sm![k]! / sum - 1));
        for (let j = 0; j < f; j++) worstW = Math.max(worstW, Math.abs(wGot![j * m + k]! - wK[j]!) / wScale[j]!);
      }
      expect(worstSum, at).toBeLessThan(2 ** -22);
      expect(worstW, at).toBeLessThan(1e-6);
      // and it was the grid kernel that ran: the exp path, on the float32 bins, rounds differently
      const [expKernel] = tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: gaussKernel(a, tf.transpose(bt) as tf.Tensor2D, c, false) }, { flush } as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const expPathW = (tf.engine().runKernel(SERIES_FACTOR_KERNEL, { psi, kpos: expKernel! }, {}) as tf.Tensor).dataSync();
      expect([...wGot!], at).not.toEqual([...expPathW]);
      tf.dispose([a, psi, bt, colMax!, colSum!, w!, kdeMax!, kdeSum!, kernel!, lpMax!, lpSum!, lpW, expKernel!]);
    }
  });

  it('adds the bias and floors in one pass with the bits of the op graph add → maximum, specials included', () => {
    const floor = Math.fround(-34.538776394910684);
    for (const [n, m] of [[3, 8], [5, 7], [1, 1], [0, 4], [40, 1000]] as const) {
      const values = Float32Array.from({ length: n * m }, (_, i) => [NaN, Infinity, -Infinity, -0, floor, floor - 1e-5, 0.25][i % 9] ?? (i * 37) % 101 - 60);
      const bias = Float32Array.from({ length: m }, (_, j) => [-Infinity, 0, -0, 3.5][j % 5] ?? -j / 3);
      const x = tf.tensor2d(values, [n, m]);
      const b = tf.tensor1d(bias);
      const got = tf.engine().runKernel(BIAS_FLOOR_KERNEL, { x, bias: b }, { floor } as unknown as tf.NamedAttrMap) as tf.Tensor;
      const want = tf.maximum(tf.add(x, b), floor);
      expect(got.shape).toEqual([n, m]);
      // Object.is tells −0 from 0 and NaN from NaN
      const [g, w] = [got.dataSync(), want.dataSync()];
      for (let i = 0; i < g.length; i++) expect(Object.is(g[i], w[i]), `${n} × ${m} entry ${i}: ${g[i]} vs ${w[i]}`).toBe(true);
      tf.dispose([x, b, got, want]);
    }
    expect(() => tf.engine().runKernel(BIAS_FLOOR_KERNEL, { x: tf.zeros([2, 3]), bias: tf.zeros([4]) }, { floor } as unknown as tf.NamedAttrMap)).toThrow(/bias per column/);
  });

  it('forms the series terms: log of the non-negative part of φ·w, plus row offset and bin bias, floored', () => {
    const floor = -34.538776394910684;
    for (const [n, m, f] of [[3, 4, 4], [5, 9, 8], [17, 33, 12], [9, 70, 12], [4, 64, 4]] as const) {
      const phi = tf.randomNormal([n, f], 0, 1, 'float32', n) as tf.Tensor2D;
      const w = tf.randomNormal([f, m], 0, 1, 'float32', m) as tf.Tensor2D;
      const rowOff = tf.randomUniform([n], -40, 5, 'float32', f);
      // bins with zero occupancy have a −inf bias and must land on the floor
      const bias = tf.tensor1d(Float32Array.from({ length: m }, (_, j) => (j % 5 === 2 ? -Infinity : -3 + j / 7)));
      const got = (tf.engine().runKernel(SERIES_TERMS_KERNEL, { phi, w, rowOff, bias }, { floor } as unknown as tf.NamedAttrMap) as tf.Tensor).dataSync();
      const sums = tf.matMul(phi, w).dataSync();
      const [off, b] = [rowOff.dataSync(), bias.dataSync()];
      let negatives = 0;
      for (let k = 0; k < n; k++) {
        for (let j = 0; j < m; j++) {
          const s = sums[k * m + j]!;
          const at = `n=${n} m=${m} k=${k} j=${j}`;
          if (s <= 0 || b[j] === -Infinity) {
            negatives += s <= 0 ? 1 : 0;
            expect(got[k * m + j], at).toBe(Math.fround(floor));
          } else {
            expect(got[k * m + j], at).toBeCloseTo(Math.max(Math.log(s) + off[k]! + b[j]!, floor), 4);
          }
        }
      }
      // random φ·w is negative about half the time: the floor branch is exercised
      expect(negatives).toBeGreaterThan(0);
      // W two zero rows taller (the series' padding) against Φ with and without its two zero columns: the same bits
      const tallW = tf.concat([w, tf.zeros([2, m])], 0);
      const widePhi = tf.concat([phi, tf.zeros([n, 2])], 1);
      const narrow = (tf.engine().runKernel(SERIES_TERMS_KERNEL, { phi, w: tallW, rowOff, bias }, { floor } as unknown as tf.NamedAttrMap) as tf.Tensor).dataSync();
      const padded = (tf.engine().runKernel(SERIES_TERMS_KERNEL, { phi: widePhi, w: tallW, rowOff, bias }, { floor } as unknown as tf.NamedAttrMap) as tf.Tensor).dataSync();
      expect(Buffer.from(narrow.buffer).equals(Buffer.from(padded.buffer)), `n=${n} m=${m} f=${f}`).toBe(true);
      expect(Buffer.from(narrow.buffer).equals(Buffer.from(got.buffer)), `n=${n} m=${m} f=${f}`).toBe(true);
    }
    expect(() => tf.engine().runKernel(SERIES_TERMS_KERNEL, { phi: tf.zeros([2, 5]), w: tf.zeros([4, 8]), rowOff: tf.zeros([2]), bias: tf.zeros([8]) }, { floor } as unknown as tf.NamedAttrMap))
      .toThrow(/5 features, W only 4 rows/);
  });

  it('flushes compensated weights below the threshold and leaves the others and C* as they were', () => {
    for (const d of [2, 4]) expectFlushedWeights(d);
  });

  function expectFlushedWeights(d: number): void {
    // spread so that some weights fall between the smallest float and the threshold
    const spread = d === 2 ? 40 : 20;
    const a = tf.randomNormal([6, d], 0, spread, 'float32', 3) as tf.Tensor2D;
    const b = tf.randomNormal([37, d], 0, spread, 'float32', 4) as tf.Tensor2D;
    const rowMax = tf.randomUniform([37], -60, -1, 'float32', 5);
    const run = (flush: number) => tf.engine().runKernel(
      COMPENSATED_WEIGHTS_KERNEL, { a, bt: tf.transpose(b), rowMax }, { c: -3.5, logE: Math.log(37), flush } as unknown as tf.NamedAttrMap,
    ) as tf.Tensor[];
    const [plain, plainScale] = run(0);
    const threshold = 2 ** -63;
    const [flushed, flushedScale] = run(threshold);
    expect(flushedScale!.dataSync()[0]).toBe(plainScale!.dataSync()[0]);
    const [p, f] = [plain!.dataSync(), flushed!.dataSync()];
    let zeroed = 0;
    for (let i = 0; i < p.length; i++) {
      if (p[i]! < threshold) {
        expect(f[i]).toBe(0);
        if (p[i]! > 0) zeroed++;
      } else expect(f[i], `d=${d} weight ${i}`).toBe(p[i]);
    }
    expect(zeroed, `d=${d}`).toBeGreaterThan(0);
    expect(f.some((v) => v > 0), `d=${d}`).toBe(true);
  }

  it('sums 85 000 rescaled rows per column within a few float32 roundings (partial sums of 256 rows)', () => {
    // one production tetrode's encoding spikes; summed row by row in float32 these drift by ~1.2e-6
    const [n, m] = [85_000, 8];
    const x = Float32Array.from({ length: n * m }, (_, i) => -((i * 7919) % 1000) / 700);
    const [, colMax, colSum] = tf.engine().runKernel(COLUMN_SCALED_EXP_KERNEL, { x: tf.tensor2d(x, [n, m]) }, {}) as tf.Tensor[];
    const [mx, sums] = [colMax!.dataSync(), colSum!.dataSync()];
    for (let j = 0; j < m; j++) {
      let exact = 0;
      for (let i = 0; i < n; i++) exact += Math.fround(Math.exp(x[i * m + j]! - mx[j]!));
      expect(Math.abs(sums[j]! - exact) / exact, `column ${j}`).toBeLessThan(6e-7);
    }
  });

  /** x (k × n) with the columns of `emptyPanels` set to 0 */
  function withEmptyPanels(x: Float32Array, k: number, n: number, emptyPanels: number[]): Float32Array {
    for (const p of emptyPanels) for (let r = 0; r < k; r++) for (let c = 8 * p; c < Math.min(n, 8 * p + 8); c++) x[r * n + c] = 0;
    return x;
  }

  it('packs a matrix in panels of eight columns, the columns past its width zero, and leaves out the panels of zeros', () => {
    for (const [k, n, empty] of [[1, 1, []], [5, 8, []], [3, 11, [1]], [4, 16, [0]], [2, 21, [1]], [3, 24, [0, 2]], [2, 3, [0]]] as const) {
      const x = withEmptyPanels(Float32Array.from({ length: k * n }, (_, i) => i + 1), k, n, [...empty]);
      const [packed, flags] = tf.engine().runKernel(PACK_PANELS_KERNEL, { x: tf.tensor2d(x, [k, n]) }) as tf.Tensor[];
      const panels = Math.ceil(n / 8);
      const kept = Array.from({ length: panels }, (_, p) => p).filter((p) => !(empty as readonly number[]).includes(p));
      expect(Array.from(flags!.dataSync()), `k=${k} n=${n}`).toEqual(Array.from({ length: panels }, (_, p) => (kept.includes(p) ? 1 : 0)));
      expect(flags!.dtype).toBe('int32');
      expect(packed!.shape).toEqual([kept.length, k, 8]);
      const got = packed!.dataSync();
      kept.forEach((p, stored) => {
        for (let r = 0; r < k; r++) {
          for (let c = 0; c < 8; c++) {
            const col = 8 * p + c;
            expect(got[(stored * k + r) * 8 + c], `k=${k} n=${n} panel ${p} row ${r} column ${c}`).toBe(col < n ? x[r * n + col] : 0);
          }
        }
      });
    }
    // a NaN is not 0: its panel is kept
    const [, nanFlags] = tf.engine().runKernel(PACK_PANELS_KERNEL, { x: tf.tensor2d([0, 0, 0, 0, 0, 0, 0, 0, 0, NaN], [1, 10]) }) as tf.Tensor[];
    expect(Array.from(nanFlags!.dataSync())).toEqual([0, 1]);
  });

  it('folds a chunk through the packed product as foldCompensated does: rows and columns that are not whole tiles, panels of zeros, with and without a sum so far', () => {
    for (const [m, k, n, empty] of [[1, 1, 1, []], [4, 5, 8, []], [7, 9, 11, [1]], [13, 64, 100, [2, 3, 4, 12]], [3, 4, 3, [0]], [6, 8, 20, [0, 1]]] as const) {
      const w = tf.randomUniform([m, k], 0, 1, 'float32', m + k) as tf.Tensor2D;
      const fv = withEmptyPanels(tf.randomUniform([k, n], 0, 1, 'float32', n).dataSync() as Float32Array, k, n, [...empty]);
      const factor = tf.tensor2d(fv, [k, n]);
      const [packed, flags] = tf.engine().runKernel(PACK_PANELS_KERNEL, { x: factor }) as tf.Tensor[];
      const prevSum = tf.randomUniform([m, n], 0, 1, 'float32', 7) as tf.Tensor2D;
      const attrs = { columns: n } as unknown as tf.NamedAttrMap;
      const product = tf.matMul(w, factor).dataSync();
      const [wv, pv] = [w.dataSync(), prevSum.dataSync()];
      // first chunk: the product as it is, its scale passed through
      const [first, firstScale] = tf.engine().runKernel(SCALED_CHUNK_PRODUCT_KERNEL, { w, chunkScale: tf.scalar(-3.5), packed: packed!, flags: flags! }, attrs) as tf.Tensor[];
      expect(first!.shape).toEqual([m, n]);
      expect(firstScale!.dataSync()[0]).toBe(-3.5);
      // a later chunk with a larger scale: the sum so far shrinks by e^(prev − new), the chunk is taken as it is
      const [later, laterScale] = tf.engine().runKernel(
        SCALED_CHUNK_PRODUCT_KERNEL, { w, chunkScale: tf.scalar(-1), packed: packed!, flags: flags!, prevSum, prevScale: tf.scalar(-3.5) }, attrs,
      ) as tf.Tensor[];
      expect(laterScale!.dataSync()[0]).toBe(-1);
      // and one with a smaller scale: the chunk shrinks by e^(chunk − prev)
      const [smaller] = tf.engine().runKernel(
        SCALED_CHUNK_PRODUCT_KERNEL, { w, chunkScale: tf.scalar(-2), packed: packed!, flags: flags!, prevSum, prevScale: tf.scalar(0) }, attrs,
      ) as tf.Tensor[];
      const [f1, f2, f3] = [first!.dataSync(), later!.dataSync(), smaller!.dataSync()];
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let exact = 0;
          for (let q = 0; q < k; q++) exact += wv[i * k + q]! * fv[q * n + j]!;
          const at = `m=${m} k=${k} n=${n} (${i}, ${j})`;
          const tol = 1e-6 * Math.max(1, k) * exact;
          expect(Math.abs(f1[i * n + j]! - exact), at).toBeLessThanOrEqual(tol);
          expect(Math.abs(f1[i * n + j]! - product[i * n + j]!), at).toBeLessThanOrEqual(tol);
          expect(Math.abs(f2[i * n + j]! - (pv[i * n + j]! * Math.exp(-2.5) + exact)), at).toBeLessThanOrEqual(tol + 1e-7);
          expect(Math.abs(f3[i * n + j]! - (pv[i * n + j]! + exact * Math.exp(-2))), at).toBeLessThanOrEqual(tol + 1e-7);
        }
      }
    }
    const w = tf.zeros([2, 3]);
    const [packed, flags] = tf.engine().runKernel(PACK_PANELS_KERNEL, { x: tf.ones([4, 5]) }) as tf.Tensor[];
    expect(() => tf.engine().runKernel(SCALED_CHUNK_PRODUCT_KERNEL, { w, chunkScale: tf.scalar(0), packed: packed!, flags: flags! }, { columns: 5 })).toThrow(/do not match/);
  });

  it('builds position-factor rows on evenly spaced bins within float32 rounding of float64, each row over its maximum, flushed', () => {
    const std = [6];
    const inv = Math.fround(1 / 6);
    const c = -Math.log(6 * Math.sqrt(2 * Math.PI));
    // the last case spans 100 widths: rows far from an end take a window of the grid
    for (const [nEnc, m, first, count, flush, span] of [[40, 100, 0, 40, 2 ** -63, 200], [300, 64, 17, 200, 0, 200], [50, 16, 5, 9, 2 ** -63, 200], [60, 400, 0, 60, 2 ** -63, 600]] as const) {
      const spacing = span / m;
      const centres = Float32Array.from({ length: m }, (_, k) => Math.fround(Math.fround(spacing / 2 + k * spacing) * inv));
      const grid = uniformGridOf(centres)!;
      const positions = tf.randomUniform([nEnc, 1], 0, span, 'float32', nEnc + m) as tf.Tensor2D;
      const a = tf.mul(positions, tf.tensor1d([1 / std[0]!]));
      const order = tf.tensor1d(Array.from({ length: nEnc }, (_, i) => (i * 7) % nEnc), 'int32');
      const [factor, rowMax] = tf.engine().runKernel(
        POSITION_FACTOR_ROWS_KERNEL, { a, order, bt: tf.tensor2d(centres, [1, m]) }, { first, count, c, flush } as unknown as tf.NamedAttrMap,
      ) as tf.Tensor[];
      const [aHost, orderHost, got, mx] = [a, order, factor!, rowMax!].map((t) => t.dataSync());
      const at = `E=${nEnc} m=${m} rows ${first}+${count} flush ${flush}`;
      let worst = 0;
      let dropped = 0;
      for (let i = 0; i < count; i++) {
        const u = aHost![orderHost![first + i]!]!;
        const z = Array.from({ length: m }, (_, k) => c - 0.5 * (u - grid.start - k * grid.step) ** 2);
        // the row's maximum is the log kernel at its nearest bin, up to float32 rounding
        expect(Math.abs(mx![i]! - Math.max(...z)), at).toBeLessThan(1e-5);
        for (let k = 0; k < m; k++) {
          const want = Math.exp(z[k]! - mx![i]!);
          const v = got![i * m + k]!;
          if (want < flush * 0.999) {
            expect(v, `${at} row ${i} bin ${k}`).toBe(0);
            dropped++;
          } else if (want < 2 ** -126) {
            // below float32's normal range: the nearest subnormal or 0
            expect(Math.abs(v - want), `${at} row ${i} bin ${k}`).toBeLessThanOrEqual(2 ** -149);
          } else if (want > flush * 1.001) worst = Math.max(worst, Math.abs(v / want - 1));
        }
      }
      expect(worst, at).toBeLessThan(2 ** -23);
      if (flush > 0 && m === 100) expect(dropped, at).toBeGreaterThan(0);
      tf.dispose([positions, a, order, factor!, rowMax!]);
    }
  });

  it("builds position-factor rows of spikes taken in an order with the bits of the op graph gather → log kernel → positionFactor → flush", () => {
    const cases = [[40, 1, 7, 5, 20, 2 ** -63], [40, 1, 100, 0, 40, 0], [40, 1, 100, 0, 40, 2 ** -63], [33, 2, 13, 30, 3, 2 ** -63], [12, 2, 4, 0, 0, 0]] as const;
    for (const [nEnc, q, m, first, count, flush] of cases) {
      const positions = tf.randomUniform([nEnc, q], 0, 200, 'float32', nEnc + q) as tf.Tensor2D;
      const centers = tf.randomUniform([m, q], 0, 200, 'float32', m) as tf.Tensor2D;
      const std = Array(q).fill(6) as number[];
      const order = tf.tensor1d(Array.from({ length: nEnc }, (_, i) => (i * 7) % nEnc), 'int32');
      const inv = tf.tensor1d(std.map((s) => 1 / s));
      const c = -q * Math.log(6 * Math.sqrt(2 * Math.PI));
      const [factor, rowMax] = tf.engine().runKernel(
        POSITION_FACTOR_ROWS_KERNEL, { a: tf.mul(positions, inv), order, bt: tf.transpose(tf.mul(centers, inv)) }, { first, count, c, flush } as unknown as tf.NamedAttrMap,
      ) as tf.Tensor[];
      expect(factor!.shape).toEqual([count, m]);
      if (count === 0) continue;
      const rows = tf.slice(tf.gather(positions, order), [first, 0], [count, q]) as tf.Tensor2D;
      const logK = gaussKernel(tf.mul(rows, inv) as tf.Tensor2D, tf.mul(centers, inv) as tf.Tensor2D, c, false);
      const wantMax = tf.max(logK, 1);
      const scaled = tf.exp(tf.sub(logK, tf.expandDims(wantMax, 1)));
      const wantFactor = flush > 0 ? tf.where(tf.less(scaled, flush), tf.zerosLike(scaled), scaled) : scaled;
      const at = `E=${nEnc} q=${q} m=${m} rows ${first}+${count} flush ${flush}`;
      expect(Array.from(rowMax!.dataSync()), at).toEqual(Array.from(wantMax.dataSync()));
      expect(Array.from(factor!.dataSync()), at).toEqual(Array.from(wantFactor.dataSync()));
      // 200 cm of bins against 6 cm kernels: the flush has entries to drop, and drops them
      if (m === 100) {
        const dropped = Array.from(scaled.dataSync()).filter((v) => v > 0 && v < 2 ** -63).length;
        expect(dropped, at).toBeGreaterThan(0);
        if (flush > 0) expect(Array.from(factor!.dataSync()).filter((v) => v > 0 && v < 2 ** -63), at).toEqual([]);
      }
    }
    const bad = () => tf.engine().runKernel(
      POSITION_FACTOR_ROWS_KERNEL, { a: tf.zeros([5, 1]), order: tf.tensor1d([0, 1, 2, 3, 4], 'int32'), bt: tf.zeros([1, 8]) }, { first: 3, count: 4, c: 0, flush: 0 },
    );
    expect(bad).toThrow(/rows 3 … 6/);
  });
});
