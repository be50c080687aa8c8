/**
 * The KDE column sums on the webgpu backend as the device sees it (lavapipe here): a fit takes the
 * same number of dispatches whatever the number of its position samples and encoding spikes (the
 * op graph takes some per tile of samples) and two readbacks whatever its number of electrodes
 * (the occupancy, then every electrode's sums together; a pool worker's share likewise in one), and every output element is written (a pooled buffer
 * full of NaN is handed out again). Skips, saying why, without an adapter.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { fitElectrodesAt, fitEncodingModel, prepareFit } from '../index';
import { kdeColumnSums } from '../ops';
import { smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';
import { activitySince, gpuActivity } from './index';

const available = webgpuForTests('webgpu kernel tests');

describe('the KDE column sums on webgpu', () => {
  it('fits in the same dispatches with 3× the samples: at most five per density, and one join per readback', async (ctx) => {
    if (!available()) return ctx.skip();
    const counts: number[] = [];
    const readbacks: number[] = [];
    // above TensorFlow.js's CPU hand-off size, so the operands' own ops are on the device in both
    for (const [scale, nElectrodes] of [[1, 2], [3, 2], [1, 5]] as const) {
      const electrodes = Array.from({ length: nElectrodes }, (_, e) => ({ nEnc: (1100 - 50 * e) * scale, nDec: 20, nFeatures: 2 + (e % 3) }));
      const ds = smallDataset({ nPos: 1200 * scale, electrodes });
      const before = gpuActivity()!;
      const model = await fitEncodingModel(ds);
      const activity = activitySince(before, gpuActivity()!);
      counts.push(activity.dispatches);
      readbacks.push(activity.readbacks);
      model.dispose();
    }
    expect(counts[1]).toBe(counts[0]);
    expect(counts[0]).toBeGreaterThan(0);
    // occupancy and two electrodes, each at most five; each of the two readbacks joins its sums in one more
    expect(counts[0]).toBeLessThanOrEqual(5 * 3 + 2);
    expect(readbacks).toEqual([2, 2, 2]);
  });

  it("fits a pool worker's share of the electrodes with one readback, to the same numbers as the whole fit", async (ctx) => {
    if (!available()) return ctx.skip();
    const electrodes = Array.from({ length: 5 }, (_, e) => ({ nEnc: 1100 - 60 * e, nDec: 20, nFeatures: 2 + (e % 3) }));
    const ds = smallDataset({ nPos: 1200, electrodes });
    const whole = await fitEncodingModel(ds);
    const shared = await prepareFit(ds, undefined, {}, whole.logOccupancy);
    const tensors: tf.Tensor[] = [];
    let sampled = 0;
    const before = gpuActivity()!;
    const share = await fitElectrodesAt(shared, [1, 3, 4], tensors, () => void sampled++);
    const activity = activitySince(before, gpuActivity()!);
    // one readback for the share's three electrodes (one per electrode before)
    expect(activity.readbacks).toBe(1);
    expect(sampled).toBe(3);
    expect([0, 2].map((e) => share[e])).toEqual([undefined, undefined]);
    for (const e of [1, 3, 4]) expect(share[e]!.groundProcessIntensity).toEqual(whole.electrodes[e]!.groundProcessIntensity);
    tf.dispose(tensors);
    whole.dispose();
  });

  it('writes every element: a buffer left full of NaN by an earlier tensor comes back whole', async (ctx) => {
    if (!available()) return ctx.skip();
    const [n, m, q] = [700, 45, 3];
    const u = (k: number): Float32Array => Float32Array.from({ length: k }, (_, i) => Math.sin(i * 12.9898 + k) * 30);
    const samples = tf.tensor2d(u(n * q), [n, q]);
    const points = tf.tensor2d(u(m * q), [m, q]);
    const parts = [300, 400];
    const [wantMax, wantSum] = kdeColumnSums.run(samples, points, [5, 6, 7], parts);
    const want = [await wantMax.data(), await wantSum.data()];
    tf.dispose([wantMax, wantSum]);
    for (let round = 0; round < 3; round++) {
      // the backend pools freed buffers by size: the next parts × m float32 outputs are likely these
      const poison = [tf.fill([2, m], NaN), tf.fill([2, m], NaN)];
      await Promise.all(poison.map((t) => t.data()));
      tf.dispose(poison);
      const [colMax, colSum] = kdeColumnSums.run(samples, points, [5, 6, 7], parts);
      const got = [await colMax.data(), await colSum.data()];
      tf.dispose([colMax, colSum]);
      expect(got.map((g) => g.filter(Number.isNaN).length)).toEqual([0, 0]);
      expect(got.map((g, k) => Math.max(...g.map((v, i) => Math.abs(v - want[k]![i]!))))).toEqual([0, 0]);
    }
    tf.dispose([samples, points]);
  });
});
