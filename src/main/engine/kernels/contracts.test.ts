/**
 * The kernel contracts, one suite for every backend: each kernel with a contract (contracts.ts)
 * against a float64 evaluation of what it must compute, on odd shapes (one spike, one encoding
 * spike, a block past the first rows, a block that does not fill a tile, bins not a multiple of the tile, one and ten mark
 * dimensions), with a zero-occupancy bin and an encoding spike whose factor row is not finite.
 * Where a backend has the engine's own kernel it must be the one that ran.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import type { BackendName } from '../../../shared/config';
import { initBackend, listBackends } from '../index';
import { LOG_EPS } from '../model';
import { fusedLikelihood } from '../ops';
import { rng } from '../testing/builders';
import { FUSED_LIKELIHOOD_KERNEL, KERNEL_CONTRACTS } from './index';

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
