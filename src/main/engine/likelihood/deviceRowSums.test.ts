/**
 * A predict's rows summed on the device and read back once (deviceRowSums.ts, the webgpu kernel
 * ACCUMULATE_ROWS_KERNEL): the kernel against a float64 sum of its definition (rows out of order,
 * several spikes in a row, a row range that skips rows, floored and NaN terms, an accumulator that
 * already holds values), and whole predicts with stages that do not wait for the device: the same
 * likelihood and floor shares as the host's block-by-block sum, in one readback. Skips, saying
 * why, without an adapter.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { fitEncodingModel, predictNonlocal } from '../index';
import { LOG_EPS } from '../model';
import { accumulateRows } from '../ops';
import { maxAbsDiff, smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';
import { activitySince, gpuActivity } from '../webgpu';
import { blockRowRanges } from './deviceRowSums';

const available = webgpuForTests('device row sum tests');
const FLOOR = Math.fround(LOG_EPS);

/** What the kernel must compute, in float64: acc with the block's spikes added to their rows. */
function expected(acc: Float32Array, terms: Float32Array, rows: Int32Array, nTime: number, nBins: number, electrode: number): Float64Array {
  const out = Float64Array.from(acc);
  rows.forEach((row, k) => {
    for (let p = 0; p < nBins; p++) {
      const v = terms[k * nBins + p]!;
      if (v <= FLOOR) {
        out[(nTime + row) * nBins + p]! += 1;
        out[(2 * nTime + electrode) * nBins + p]! += 1;
      } else out[row * nBins + p]! += v;
    }
  });
  return out;
}

describe('block row ranges', () => {
  it('group a block of spikes by row, in order, from its lowest row', () => {
    const rows = Int32Array.from([9, 5, 7, 5, 7, 7, 2]);
    // the block is rows[1 …] of length 5: rows 5, 7, 5, 7, 7
    const { rowFirst, offsets, order } = blockRowRanges(rows, 1, 5);
    expect(rowFirst).toBe(5);
    expect([...offsets]).toEqual([0, 2, 2, 5]);
    expect([...order]).toEqual([0, 2, 1, 3, 4]);
    expect(blockRowRanges(rows, 0, 0).offsets.length).toBe(1);
  });
});

describe('the accumulate-rows kernel on webgpu', () => {
  it('adds a block to its rows, counts its floors, and copies every other element', async (ctx) => {
    if (!available()) return ctx.skip();
    const [nTime, nBins, nElectrodes, electrode] = [9, 67, 3, 1];
    const rows = Int32Array.from([6, 2, 6, 4, 2, 6, 8]);
    const terms = Float32Array.from({ length: rows.length * nBins }, (_, i) => (i % 11 === 0 ? FLOOR : Math.sin(i) * 3));
    terms[3 * nBins + 5] = NaN;
    const acc = Float32Array.from({ length: (2 * nTime + nElectrodes) * nBins }, (_, i) => Math.cos(i));
    const { rowFirst, offsets, order } = blockRowRanges(rows, 0, rows.length);
    const [accT, termsT, offsetsT, orderT] = [
      tf.tensor2d(acc, [2 * nTime + nElectrodes, nBins]), tf.tensor2d(terms, [rows.length, nBins]), tf.tensor1d(offsets, 'int32'), tf.tensor1d(order, 'int32'),
    ];
    const got = accumulateRows.run(accT, termsT, offsetsT, orderT, { rowFirst, nTime, electrode, floor: FLOOR });
    const values = await got.data();
    const want = expected(acc, terms, rows, nTime, nBins, electrode);
    expect(Number.isNaN(values[4 * nBins + 5]!)).toBe(true);
    values[4 * nBins + 5] = 0;
    want[4 * nBins + 5] = 0;
    expect(maxAbsDiff(values, want)).toBeLessThan(1e-5);
    tf.dispose([accT, termsT, offsetsT, orderT, got]);
  });
});

describe('a predict whose rows the device sums', () => {
  const ds = smallDataset({
    nTime: 30,
    electrodes: [{ nEnc: 120, nDec: 90, nFeatures: 4 }, { nEnc: 0, nDec: 7, nFeatures: 2 }, { nEnc: 80, nDec: 40, nFeatures: 2 }],
  });

  for (const strategy of ['compensated', 'reference'] as const) {
    it(`${strategy}: the host's likelihood and floor shares, read back once`, async (ctx) => {
      if (!available()) return ctx.skip();
      const model = await fitEncodingModel(ds);
      const host = await predictNonlocal(model, ds, strategy, { blockSize: 32 });
      // warm: pipelines compiled, the model's tensors uploaded
      await predictNonlocal(model, ds, strategy, { blockSize: 32, stageSync: false });
      const before = gpuActivity()!;
      const device = await predictNonlocal(model, ds, strategy, { blockSize: 32, stageSync: false });
      const activity = activitySince(before, gpuActivity()!);
      model.dispose();
      expect(maxAbsDiff(device.logLikelihood, host.logLikelihood)).toBeLessThan(1e-4);
      expect(device.floorShare.map((f) => (Number.isNaN(f) ? -1 : Math.round(f * 1e6)))).toEqual(host.floorShare.map((f) => (Number.isNaN(f) ? -1 : Math.round(f * 1e6))));
      expect(activity.readbacks).toBe(1);
      expect(activity.readBytes).toBe((2 * ds.time.length + ds.electrodes.length) * ds.placeBinCenters.length * 4);
    });
  }
});
