/**
 * The fused likelihood on the webgpu backend as the device sees it (lavapipe here): how many
 * dispatches a block takes, that its pipelines compile once, that every output element is written
 * (a pooled buffer full of NaN is handed out again), what a readback costs, and the dispatches of a
 * real predict's blocks through the stage spans' `gpu` args. Skips, saying why, without an adapter.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { fitEncodingModel, predictNonlocal } from '../index';
import { LOG_EPS, type EngineProbe } from '../model';
import { fusedLikelihood } from '../ops';
import { smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';
import { activitySince, gpuActivity } from './index';

const available = webgpuForTests('webgpu kernel tests');

function operands(B: number, E: number, P: number, D: number): { dec: tf.Tensor2D; o: fusedLikelihood.Operands } {
  const u = (n: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + n) * 0.8);
  return {
    dec: tf.tensor2d(u(B * D), [B, D]),
    o: {
      invStd: tf.fill([D], 1.5) as tf.Tensor1D, encT: tf.tensor2d(u(D * E), [D, E]), rowMax: tf.tensor2d(u(E), [1, E]),
      factor: tf.tensor2d(Float32Array.from(u(E * P), Math.abs), [E, P]), bias: tf.tensor1d(u(P)),
    },
  };
}

const ATTRS = { c: -1, logE: Math.log(50), floor: Math.fround(LOG_EPS) };

describe('the fused likelihood on webgpu', () => {
  it('takes two dispatches per block, compiles its pipelines once, and reads back only the terms', async (ctx) => {
    if (!available()) return ctx.skip();
    const { dec, o } = operands(70, 50, 90, 4);
    const first = gpuActivity()!;
    const a = fusedLikelihood.run(dec, o, { ...ATTRS, first: 0, count: dec.shape[0] });
    await a.data();
    const warm = gpuActivity()!;
    const b = fusedLikelihood.run(dec, o, { ...ATTRS, first: 0, count: dec.shape[0] });
    const dispatched = activitySince(warm, gpuActivity()!);
    await b.data();
    const read = activitySince(warm, gpuActivity()!);
    // operands are uploaded on first use, so the first call's dispatches are the kernel's two as well
    expect(activitySince(first, warm).dispatches).toBe(2);
    expect(dispatched).toEqual({ dispatches: 2, pipelines: 0, readBytes: 0, readbacks: 0 });
    expect(read.readBytes).toBe(70 * 90 * 4);
    expect(read.readbacks).toBe(1);
    tf.dispose([a, b, dec, ...Object.values(o)]);
  });

  it('writes every element: a buffer left full of NaN by an earlier tensor comes back whole', async (ctx) => {
    if (!available()) return ctx.skip();
    const [B, P] = [65, 67];
    const { dec, o } = operands(B, 33, P, 3);
    const want = await fusedLikelihood.opGraph(dec, o, { ...ATTRS, first: 0, count: dec.shape[0] }).data();
    for (let round = 0; round < 3; round++) {
      // the backend pools freed buffers by size: the next B × P float32 output is likely this one
      const poison = tf.fill([B, P], NaN);
      await poison.data();
      poison.dispose();
      const got = fusedLikelihood.run(dec, o, { ...ATTRS, first: 0, count: dec.shape[0] });
      const values = await got.data();
      got.dispose();
      expect(values.filter((v) => Number.isNaN(v)).length).toBe(0);
      expect(Math.max(...values.map((v, i) => Math.abs(v - want[i]!)))).toBeLessThan(1e-4);
    }
    tf.dispose([dec, ...Object.values(o)]);
  });

  it("a compensated predict's blocks each take at most 3 dispatches in their kernel stage, and auto takes that path", async (ctx) => {
    if (!available()) return ctx.skip();
    const ds = smallDataset({ electrodes: [{ nEnc: 120, nDec: 90, nFeatures: 4 }, { nEnc: 80, nDec: 40, nFeatures: 2 }] });
    const model = await fitEncodingModel(ds);
    const stages: { name: string; gpu?: { dispatches: number; pipelines: number } }[] = [];
    const probe: EngineProbe = {
      span: async (name, fn, args) => {
        const out = await fn();
        stages.push({ name, gpu: args?.gpu as { dispatches: number; pipelines: number } | undefined });
        return out;
      },
      counter: () => undefined, instant: () => undefined, progress: () => undefined,
    };
    await predictNonlocal(model, ds, 'compensated', { blockSize: 32 }, probe);
    // auto takes the fused path on webgpu, and says so
    const auto = await predictNonlocal(model, ds, 'auto', { blockSize: 32 });
    model.dispose();
    expect(auto.resolved).toEqual(['compensated', 'compensated']);
    expect((auto.resolvedReasons ?? []).map((r) => /fused likelihood kernel/.test(r))).toEqual([true, true]);
    const reduce = stages.filter((s) => s.name === 'reduce');
    // 90 and 40 spikes in blocks of 32: 3 + 2 blocks
    expect(reduce.length).toBe(5);
    expect(reduce.map((s) => s.gpu!.dispatches <= 3)).toEqual(reduce.map(() => true));
  });
});
