/** The compensated strategy's kernels: its weights per block and chunk, and its position factor's rows. */
import type * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { offsetOf, wasmKernel, withFloat64Scratch } from './kernelCall';
import { COMPENSATED_WEIGHTS_KERNEL, MIN_KERNEL_COLUMNS, POSITION_FACTOR_ROWS_KERNEL } from '../kernels';
import { gridFactorRowStates, uniformGridOf } from './uniformGrid';

export const compensatedWeightsKernel = wasmKernel<typeof COMPENSATED_WEIGHTS_KERNEL, 'a' | 'bt' | 'rowMax'>(
  COMPENSATED_WEIGHTS_KERNEL, ({ backend, kernels, inputs: { a, bt, rowMax }, attrs: { c, logE, flush }, at, output }) => {
    const [n, d] = a.shape as [number, number];
    const m = bt.shape[1]!;
    if (m < MIN_KERNEL_COLUMNS) throw new Error(`${COMPENSATED_WEIGHTS_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} encoding spikes, got ${m}`);
    const w = output([n, m]);
    const scale = output([]);
    // a caller may leave flush out
    const value = kernels.compensatedWeights(at(a), at(bt), n, m, d, c, at(rowMax), logE, at(w), flush ?? 0);
    backend.wasm.HEAPF32[at(scale) / 4] = value;
    return [w, scale];
  },
);

export const positionFactorRowsKernel = wasmKernel<typeof POSITION_FACTOR_ROWS_KERNEL, 'a' | 'order' | 'bt'>(
  POSITION_FACTOR_ROWS_KERNEL, ({ backend, kernels, inputs: { a, order, bt }, attrs: { first, count, c, flush }, at, output }) => {
    const [nEnc, q] = a.shape as [number, number];
    const [qb, m] = bt.shape as [number, number];
    if (order.dtype !== 'int32' || order.shape[0] !== nEnc || qb !== q || m < MIN_KERNEL_COLUMNS || first < 0 || count < 0 || first + count > nEnc) {
      throw new Error(
        `${POSITION_FACTOR_ROWS_KERNEL}: positions ${nEnc} × ${q}, order of ${order.shape[0]} (${order.dtype}), bins ${qb} × ${m}, ` +
          `rows ${first} … ${first + count - 1}: expected an int32 order of every spike, matching dimensions, at least ${MIN_KERNEL_COLUMNS} bins`,
      );
    }
    const dst = output([count, m]);
    const rowMax = output([count]);
    const grid = q === 1 && count > 0 ? factorRowsOnGrid(backend, a, order, first, count, bt, c) : null;
    if (grid) {
      backend.wasm.HEAPF32.set(grid.rowMax, at(rowMax) / 4);
      withFloat64Scratch(backend, [grid.states.length], ([state]) => {
        new Float64Array(backend.wasm.HEAPF32.buffer).set(grid.states, state! / 8);
        kernels.gridFactorRows(state!, count, m, grid.q, flush, at(dst));
      });
    } else if (count > 0) {
      kernels.positionFactorRows(at(a), at(order), first, count, q, at(bt), m, c, at(dst), at(rowMax), flush);
    }
    return [dst, rowMax];
  },
);

/**
 * The grid kernel's plan for position-factor rows first … first + count − 1 of the spikes in
 * `order` (one-dimensional positions a over the width, bins bt): their positions gathered, the
 * rows' maxima and states (uniformGrid.ts); null off a uniform grid or out of range.
 */
function factorRowsOnGrid(
  backend: BackendWasm, a: tf.TensorInfo, order: tf.TensorInfo, first: number, count: number, bt: tf.TensorInfo, c: number,
): { states: Float64Array; q: number; rowMax: Float32Array } | null {
  const m = bt.shape[1]!;
  const heap = backend.wasm.HEAPF32;
  const pb = offsetOf(backend, bt) / 4;
  const grid = m % 4 === 0 ? uniformGridOf(heap.subarray(pb, pb + m)) : null;
  if (!grid) return null;
  const pa = offsetOf(backend, a) / 4;
  const spikes = new Int32Array(heap.buffer, offsetOf(backend, order) + first * 4, count);
  const positions = new Float32Array(count);
  for (let i = 0; i < count; i++) positions[i] = heap[pa + spikes[i]!]!;
  return gridFactorRowStates(positions, grid, m, c);
}
