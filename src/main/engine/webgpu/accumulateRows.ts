/**
 * ACCUMULATE_ROWS_KERNEL on WebGPU: one dispatch that adds a block of spike terms into the window's
 * accumulator, which stays on the device until the window is read once. TensorFlow.js's programs
 * write a fresh output, so each element of the accumulator is copied or added in one invocation:
 * an output row with spikes in the block sums them in the order the host gave (no atomics, so the
 * sums are the same bits run after run), a floor-count row counts, electrode e's floor row walks
 * the block's spikes in its column, and every other element is copied. The copy is the price of
 * keeping TensorFlow.js's buffers: (2T + N) × P float32 per block, small beside the block's own
 * work, and the caller bounds the accumulator (accumulateRowsTakes).
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { AccumulateRowsAttrs } from '../kernels';
import type { WebGpuBackendLike, WebGpuProgram } from './program';

const THREADS = 256;
/** the most workgroups along one dimension of a dispatch (WebGPU's default limit) */
const MAX_GROUPS_PER_DIM = 65_535;

/** A flat dispatch of n invocations: along x, and along y where x alone cannot hold it. */
function flatDispatch(n: number): [number, number, number] {
  const groups = Math.max(1, Math.ceil(n / THREADS));
  return groups <= MAX_GROUPS_PER_DIM ? [groups, 1, 1] : [MAX_GROUPS_PER_DIM, Math.ceil(groups / MAX_GROUPS_PER_DIM), 1];
}

export function accumulateRowsProgram(accRows: number, nBins: number): WebGpuProgram {
  return {
    outputShape: [accRows, nBins],
    shaderKey: 'KdeAccumulateRows',
    // a flat layout: TensorFlow.js calls main with the global index of the invocation
    dispatchLayout: { x: [0, 1] },
    dispatch: flatDispatch(accRows * nBins),
    variableNames: ['acc', 'terms', 'offsets', 'order'],
    uniforms: 'rowFirst : i32, nTime : i32, electrode : i32, floor : f32,',
    workgroupSize: [THREADS, 1, 1],
    getUserCode: () => `
      fn main(index : i32) {
        let nBins = uniforms.outShape.y;
        if (index >= uniforms.outShape.x * nBins) { return; }
        let row = index / nBins;
        let p = index - row * nBins;
        let nTime = uniforms.nTime;
        let nRanges = uniforms.offsetsShape - 1;
        var v = acc[index];
        if (row < 2 * nTime) {
          let onFloorRow = row >= nTime;
          let r = select(row, row - nTime, onFloorRow) - uniforms.rowFirst;
          if (r >= 0 && r < nRanges) {
            for (var k = offsets[r]; k < offsets[r + 1]; k++) {
              let term = terms[order[k] * nBins + p];
              // a NaN term is not on the floor: it is summed and the row stays NaN
              let floored = term <= uniforms.floor;
              if (onFloorRow) { v += select(0.0, 1.0, floored); } else if (!floored) { v += term; }
            }
          }
        } else if (row - 2 * nTime == uniforms.electrode) {
          let nSpikes = uniforms.termsShape.x;
          var n = 0.0;
          for (var s = 0; s < nSpikes; s++) { n += select(0.0, 1.0, terms[s * nBins + p] <= uniforms.floor); }
          v += n;
        }
        result[index] = v;
      }`,
  };
}

/** The kernel: one dispatch; acc, offsets and order are read, a new accumulator returned. */
export function accumulateRows(backend: WebGpuBackendLike, inputs: Record<string, tf.TensorInfo>, attrs: AccumulateRowsAttrs): tf.TensorInfo {
  const { acc, terms, offsets, order } = inputs as Record<'acc' | 'terms' | 'offsets' | 'order', tf.TensorInfo>;
  const [accRows, nBins] = acc!.shape as [number, number];
  return backend.runWebGPUProgram(accumulateRowsProgram(accRows, nBins), [acc!, terms!, offsets!, order!], 'float32', [
    { type: 'int32', data: [attrs.rowFirst] }, { type: 'int32', data: [attrs.nTime] }, { type: 'int32', data: [attrs.electrode] },
    { type: 'float32', data: [attrs.floor] },
  ]);
}
