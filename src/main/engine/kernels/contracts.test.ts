/**
 * The kernel contracts, one suite for every backend: each kernel with a contract (contracts.ts)
 * against a float64 evaluation of what it must compute, on odd shapes (one spike, one encoding
 * spike, a block past the first rows, a block that does not fill a tile, bins not a multiple of the tile, one and ten mark
 * dimensions), with a zero-occupancy bin and an encoding spike whose factor row is not finite;
 * the KDE column sums on one sample, one point, parts past the first, an empty part, points far
 * from every sample and 1 to 17 coordinates, by the fit's parts (kdeParts, the op graph where a
 * backend has no kernel) and by any parts and the peak's shift (the kernel itself).
 * Where a backend has the engine's own kernel it must be the one that ran.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import type { BackendName } from '../../../shared/config';
import { initBackend, listBackends } from '../index';
import { LOG_EPS } from '../model';
import { kdeParts, KDE_PART_SAMPLES } from '../gaussian';
import { logNormaliser } from '../hostMath';
import { fusedKernelRuns } from '../ops/fusedKernel';
import { fusedLikelihood, gaussianKernelMatrix, kdeColumnSums } from '../ops';
import { rng } from '../testing/builders';
import { FUSED_LIKELIHOOD_KERNEL, GAUSS_KERNEL, KDE_COLUMN_SUMS_KERNEL, KERNEL_CONTRACTS } from './index';

interface Case {
  B: number; E: number; P: number; D: number;
}

const CASES: Case[] = [
  { B: 1, E: 1, P: 1, D: 1 },
  { B: 1, E: 40, P: 64, D: 4 },
  { B: 65, E: 33, P: 67, D: 2 },
  { B: 130, E: 97, P: 129, D: 10 },
  { B: 7, E: 300, P: 5, D: 3 },
];

/** the block's first row among the decoding marks */
const FIRST = 2;

interface Operands {
  dec: Float32Array; invStd: Float32Array; encT: Float32Array; rowMax: Float32Array; factor: Float32Array; bias: Float32Array;
}

function operands({ B, E, P, D }: Case, seed: number): Operands {
  const r = rng(seed);
  const u = (n: number, s: number): Float32Array => Float32Array.from({ length: n }, () => (r() - 0.5) * 2 * s);
  const rowMax = u(E, 3);
  const factor = Float32Array.from(u(E * P, 1), Math.abs);
  const bias = u(P, 1);
  // a bin with no occupancy, and (when there is more than one) an encoding spike with no finite position
  bias[P - 1] = -Infinity;
  if (E > 1) rowMax[E - 1] = NaN;
  // the block is rows FIRST … FIRST + B − 1 of the marks, as a block past the first is
  return { dec: u((B + FIRST + 1) * D, 2), invStd: Float32Array.from(u(D, 0.3), (v) => Math.abs(v) + 0.5), encT: u(D * E, 2), rowMax, factor, bias };
}

/** What FUSED_LIKELIHOOD_KERNEL must compute, in float64 (names.ts). */
function expected({ B, E, P, D }: Case, o: Operands, c: number): Float64Array {
  const out = new Float64Array(B * P);
  for (let s = 0; s < B; s++) {
    const z = new Float64Array(E).fill(-Infinity);
    for (let i = 0; i < E; i++) {
      if (!Number.isFinite(o.rowMax[i]!)) continue;
      let q = 0;
      for (let d = 0; d < D; d++) q += (o.dec[(FIRST + s) * D + d]! * o.invStd[d]! - o.encT[d * E + i]!) ** 2;
      z[i] = c - 0.5 * q + o.rowMax[i]!;
    }
    const m = Math.max(...z);
    for (let p = 0; p < P; p++) {
      let sum = 0;
      for (let i = 0; i < E; i++) if (z[i]! > -Infinity) sum += Math.exp(z[i]! - m) * o.factor[i * P + p]!;
      const bias = o.bias[p]!;
      out[s * P + p] = sum > 0 && Number.isFinite(bias) ? Math.max(Math.log(sum) + m - Math.log(E) + bias, LOG_EPS) : LOG_EPS;
    }
  }
  return out;
}

async function available(backend: BackendName): Promise<boolean> {
  return (await listBackends()).find((b) => b.name === backend)!.available;
}

for (const backend of ['cpu', 'wasm', 'webgpu'] as BackendName[]) {
  describe(`kernel contracts on ${backend}`, () => {
    const contract = KERNEL_CONTRACTS[FUSED_LIKELIHOOD_KERNEL]!;
    for (const [k, shape] of CASES.entries()) {
      it(`${FUSED_LIKELIHOOD_KERNEL} ${shape.B}×${shape.E}×${shape.P}, D ${shape.D}`, async (ctx) => {
        if (!(await available(backend))) {
          ctx.skip();
          return;
        }
        await initBackend(backend);
        const o = operands(shape, 100 + k);
        const c = -0.7;
        const attrs = { first: FIRST, count: shape.B, c, logE: Math.log(shape.E), floor: Math.fround(LOG_EPS) };
        const before = tf.memory().numTensors;
        const got = tf.tidy(() =>
          fusedLikelihood.run(tf.tensor2d(o.dec, [shape.B + FIRST + 1, shape.D]), {
            invStd: tf.tensor1d(o.invStd), encT: tf.tensor2d(o.encT, [shape.D, shape.E]), rowMax: tf.tensor2d(o.rowMax, [1, shape.E]),
            factor: tf.tensor2d(o.factor, [shape.E, shape.P]), bias: tf.tensor1d(o.bias),
          }, attrs),
        );
        // the engine's kernel is what ran wherever the backend has one
        expect(fusedLikelihood.runsFused(shape.E, shape.P, shape.D)).toBe(backend === 'webgpu');
        const values = await got.data();
        got.dispose();
        expect(tf.memory().numTensors).toBe(before);
        const want = expected(shape, o, c);
        const bad = Array.from(want.keys()).filter((i) => !(Math.abs(values[i]! - want[i]!) <= contract.atol + contract.rtol * Math.abs(want[i]!)));
        expect(bad.slice(0, 5).map((i) => [i, values[i], want[i]])).toEqual([]);
      });
    }
  });
}

interface KdeCase {
  /** samples per part, points, coordinates */
  parts: number[]; m: number; q: number;
}

/** by the fit's parts of KDE_PART_SAMPLES (the last shorter) */
const KDE_CASES: KdeCase[] = [
  { parts: [1], m: 1, q: 1 },
  { parts: [KDE_PART_SAMPLES, KDE_PART_SAMPLES, 52], m: 130, q: 3 },
  { parts: [300], m: 7, q: 17 },
  { parts: [KDE_PART_SAMPLES, 9], m: 257, q: 2 },
];

/** any parts, an empty one among them, through the kernel alone */
const KERNEL_PARTS: KdeCase = { parts: [5, 0, 300, 1], m: 67, q: 5 };

function kdeOperands({ parts, m, q }: KdeCase, seed: number): { samples: Float64Array; points: Float64Array; std: number[] } {
  const r = rng(seed);
  const n = parts.reduce((a, b) => a + b, 0);
  const samples = Float64Array.from({ length: n * q }, () => (r() - 0.5) * 80);
  const points = Float64Array.from({ length: m * q }, () => (r() - 0.5) * 80);
  // a point far from every sample: its terms underflow in float32 long before float64
  if (m > 1) points.fill(5000, (m - 1) * q, m * q);
  return { samples, points, std: Array.from({ length: q }, (_, d) => 4 + d) };
}

/** Per part and point, in float64: the largest log kernel and Σ exp(logK − it); shifted by the peak c instead, dropping terms below 2^−63 of it. */
function expectedColumns({ parts, m, q }: KdeCase, o: ReturnType<typeof kdeOperands>, shiftByPeak: boolean): { max: Float64Array; sum: Float64Array } {
  const c = logNormaliser(o.std);
  const max = new Float64Array(parts.length * m).fill(-Infinity);
  const sum = new Float64Array(parts.length * m);
  let first = 0;
  for (const [k, count] of parts.entries()) {
    for (let p = 0; p < m; p++) {
      const z: number[] = [];
      for (let i = first; i < first + count; i++) {
        let d2 = 0;
        for (let d = 0; d < q; d++) d2 += ((o.samples[i * q + d]! - o.points[p * q + d]!) / o.std[d]!) ** 2;
        z.push(c - 0.5 * d2);
      }
      const top = shiftByPeak ? c : Math.max(-Infinity, ...z);
      max[k * m + p] = top;
      sum[k * m + p] = z.reduce((t, v) => t + (shiftByPeak && v - c < -63 * Math.LN2 ? 0 : top === -Infinity ? 0 : Math.exp(v - top)), 0);
    }
    first += count;
  }
  return { max, sum };
}

/** The elements outside the contract: the maxima within atol + rtol·|max|, the sums within rtol of theirs (and 2^−63 per sample under the peak's shift). */
function outsideContract(got: { max: ArrayLike<number>; sum: ArrayLike<number> }, want: { max: Float64Array; sum: Float64Array }, samples: number): unknown[] {
  const { rtol, atol } = KERNEL_CONTRACTS[KDE_COLUMN_SUMS_KERNEL]!;
  const bad: unknown[] = [];
  for (let j = 0; j < want.max.length; j++) {
    const [gm, wm, gs, ws] = [got.max[j]!, want.max[j]!, got.sum[j]!, want.sum[j]!];
    const maxOk = gm === wm || Math.abs(gm - wm) <= atol + rtol * Math.abs(wm);
    const sumOk = Math.abs(gs - ws) <= rtol * ws + samples * 2 ** -63;
    if (!maxOk || !sumOk) bad.push([j, gm, wm, gs, ws]);
  }
  return bad.slice(0, 5);
}

for (const backend of ['cpu', 'wasm', 'webgpu'] as BackendName[]) {
  describe(`${KDE_COLUMN_SUMS_KERNEL} contract on ${backend}`, () => {
    for (const [k, shape] of KDE_CASES.entries()) {
      it(`parts ${shape.parts.join('+')} × ${shape.m} points, q ${shape.q}`, async (ctx) => {
        if (!(await available(backend))) return ctx.skip();
        await initBackend(backend);
        const o = kdeOperands(shape, 300 + k);
        const before = tf.memory().numTensors;
        const got = await kdeParts(o.samples, o.points, shape.q, o.std, shape.parts.map((_, i) => i));
        expect(tf.memory().numTensors).toBe(before);
        // the engine's kernel runs wherever the backend has one that takes the shape
        expect(kdeColumnSums.runsFused(shape.m, shape.q)).toBe(backend === 'webgpu' || (backend === 'wasm' && shape.m >= 4));
        const flat = (f: 'max' | 'sum') => Float64Array.from(got.flatMap((part) => Array.from(part[f])));
        expect(got.map((part) => part.samples)).toEqual(shape.parts);
        const n = shape.parts.reduce((a, b) => a + b, 0);
        expect(outsideContract({ max: flat('max'), sum: flat('sum') }, expectedColumns(shape, o, false), n)).toEqual([]);
      });
    }

    for (const shiftByPeak of [false, true]) {
      it(`the kernel on parts ${KERNEL_PARTS.parts.join('+')}${shiftByPeak ? ', shifted by the peak' : ''}`, async (ctx) => {
        if (!(await available(backend))) return ctx.skip();
        await initBackend(backend);
        if (!kdeColumnSums.runsFused(KERNEL_PARTS.m, KERNEL_PARTS.q)) {
          // fused only: a backend without the kernel has nothing to hold to it
          expect(backend).toBe('cpu');
          return;
        }
        const o = kdeOperands(KERNEL_PARTS, 400);
        const { q, m, parts } = KERNEL_PARTS;
        const n = parts.reduce((a, b) => a + b, 0);
        const [colMax, colSum] = tf.tidy(() =>
          kdeColumnSums.run(tf.tensor2d(Float32Array.from(o.samples), [n, q]), tf.tensor2d(Float32Array.from(o.points), [m, q]), o.std, parts, shiftByPeak),
        );
        const got = { max: await colMax.data(), sum: await colSum.data() };
        tf.dispose([colMax, colSum]);
        expect(outsideContract(got, expectedColumns(KERNEL_PARTS, o, shiftByPeak), n)).toEqual([]);
      });
    }
  });
}

/** samples × points × coordinates; the last pair of a case far apart, so K underflows in float32 */
const GAUSS_CASES: [number, number, number][] = [[1, 1, 1], [70, 33, 2], [5, 300, 10], [129, 65, 3]];

for (const backend of ['cpu', 'wasm', 'webgpu'] as BackendName[]) {
  describe(`${GAUSS_KERNEL} contract on ${backend}`, () => {
    for (const [k, [n, m, d]] of GAUSS_CASES.entries()) {
      for (const linear of [false, true]) {
        it(`${n} × ${m}, d ${d}, ${linear ? 'K' : 'log K'}`, async (ctx) => {
          if (!(await available(backend))) return ctx.skip();
          await initBackend(backend);
          const r = rng(500 + k);
          const samples = Float64Array.from({ length: n * d }, () => (r() - 0.5) * 40);
          const points = Float64Array.from({ length: m * d }, () => (r() - 0.5) * 40);
          if (n > 1) samples.fill(900, (n - 1) * d);
          const std = Array.from({ length: d }, (_, j) => 3 + j);
          // the engine's kernel runs wherever the backend has one
          expect(fusedKernelRuns(GAUSS_KERNEL)).toBe(backend !== 'cpu');
          const got = tf.tidy(() => gaussianKernelMatrix.run(tf.tensor2d(Float32Array.from(samples), [n, d]), tf.tensor2d(Float32Array.from(points), [m, d]), std, linear));
          const values = await got.data();
          got.dispose();
          const c = logNormaliser(std);
          const { rtol, atol } = KERNEL_CONTRACTS[GAUSS_KERNEL]!;
          const bad: unknown[] = [];
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < m; j++) {
              let q = 0;
              for (let e = 0; e < d; e++) q += ((Math.fround(samples[i * d + e]!) - Math.fround(points[j * d + e]!)) / std[e]!) ** 2;
              const want = linear ? Math.exp(c - 0.5 * q) : c - 0.5 * q;
              // K below float32's range is 0 or subnormal there: held to the smallest normal float32 instead
              const tol = linear ? Math.max(rtol * want, 2 ** -126) : atol + rtol * Math.abs(want);
              if (!(Math.abs(values[i * m + j]! - want) <= tol)) bad.push([i, j, values[i * m + j], want]);
            }
          }
          expect(bad.slice(0, 5)).toEqual([]);
        });
      }
    }
  });
}
