/**
 * A predict's spike terms summed into its rows on the device, read back once (ops.accumulateRows):
 * where the active backend keeps the window's accumulator, each block's terms stay on the device
 * and the host receives, once per predict, every row's float32 sum of terms above the floor and
 * its count of floored terms. The host then adds both in float64 (likelihoodSum.ts), the floor as
 * the exact LOG_EPS as the block-by-block sum does. The terms of a row are summed on the device in
 * float32, electrode by electrode and spike by spike, so the likelihood is the same run after run
 * but not the same bits as the host's sum (within the parity tolerance of the float64 reference).
 */
import * as tf from '@tensorflow/tfjs-core';
import { accumulateRows } from '../ops';
import { LOG_EPS_F32 } from './likelihoodSum';

/** The device memory one predict's accumulator may take (two are alive while a block is added). */
export const DEVICE_ROW_SUMS_MAX_BYTES = 512 * 2 ** 20;

/** What the device summed, read back once. */
export interface RowSums {
  /** (T × P) each row's sum of the terms above the floor */
  sums: Float32Array;
  /** (T × P) how many of each row's terms sat on the floor */
  floored: Float32Array;
  /** per electrode, its terms on the floor */
  flooredPerElectrode: number[];
}

/** A block's spikes grouped by output row: the rows it touches from rowFirst, and its spikes in each, in order. */
export function blockRowRanges(rows: Int32Array, start: number, count: number): { rowFirst: number; offsets: Int32Array; order: Int32Array } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < count; k++) {
    const r = rows[start + k]!;
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  const nRanges = count === 0 ? 0 : hi - lo + 1;
  const offsets = new Int32Array(nRanges + 1);
  for (let k = 0; k < count; k++) offsets[rows[start + k]! - lo + 1]!++;
  for (let r = 0; r < nRanges; r++) offsets[r + 1]! += offsets[r]!;
  // a counting sort: stable, so each row's spikes keep their order
  const next = offsets.slice(0, nRanges);
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[next[rows[start + k]! - lo]!++] = k;
  return { rowFirst: count === 0 ? 0 : lo, offsets, order };
}

export class DeviceRowSums {
  private acc: tf.Tensor2D;

  /** The accumulator of a predict of nTime rows over nBins and nElectrodes, where the device keeps one; else null. */
  static open(nTime: number, nBins: number, nElectrodes: number): DeviceRowSums | null {
    const accRows = 2 * nTime + nElectrodes;
    return accumulateRows.runsFused(accRows, nBins, DEVICE_ROW_SUMS_MAX_BYTES) ? new DeviceRowSums(nTime, nBins, nElectrodes) : null;
  }

  private constructor(private readonly nTime: number, private readonly nBins: number, private readonly nElectrodes: number) {
    this.acc = tf.zeros([2 * nTime + nElectrodes, nBins]);
  }

  /** Adds one block of electrode's terms (B × P, the spikes rows[start …]); the terms stay the caller's. */
  add(electrode: number, rows: Int32Array, start: number, terms: tf.Tensor2D): void {
    const { rowFirst, offsets, order } = blockRowRanges(rows, start, terms.shape[0]);
    const offsetsT = tf.tensor1d(offsets, 'int32');
    const orderT = tf.tensor1d(order, 'int32');
    try {
      const next = accumulateRows.run(this.acc, terms, offsetsT, orderT, { rowFirst, nTime: this.nTime, electrode, floor: LOG_EPS_F32 });
      this.acc.dispose();
      this.acc = next;
    } finally {
      tf.dispose([offsetsT, orderT]);
    }
  }

  /** The sums, in one readback; the accumulator is freed. */
  async read(): Promise<RowSums> {
    const { nTime, nBins, nElectrodes } = this;
    const values = (await this.acc.data()) as Float32Array;
    this.dispose();
    const flooredPerElectrode: number[] = [];
    for (let e = 0; e < nElectrodes; e++) {
      let n = 0;
      const base = (2 * nTime + e) * nBins;
      for (let p = 0; p < nBins; p++) n += values[base + p]!;
      flooredPerElectrode.push(n);
    }
    return { sums: values.subarray(0, nTime * nBins), floored: values.subarray(nTime * nBins, 2 * nTime * nBins), flooredPerElectrode };
  }

  dispose(): void {
    this.acc.dispose();
  }
}
