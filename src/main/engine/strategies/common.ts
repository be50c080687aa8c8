/** Pieces shared by several strategies: block slicing and the common epilogue. */
import * as tf from '@tensorflow/tfjs-core';
import { LOG_EPS } from '../constants';
import type { ElectrodeContext } from './types';

export function blockRanges(total: number, size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 0; s < total; s += size) out.push([s, Math.min(total, s + size)]);
  return out;
}

export function sliceRows(t: tf.Tensor2D, start: number, stop: number): tf.Tensor2D {
  return tf.slice(t, [start, 0], [stop - start, -1]);
}

export function sliceCols(t: tf.Tensor2D, start: number, stop: number): tf.Tensor2D {
  return tf.slice(t, [0, start], [-1, stop - start]);
}

/**
 * ℓ = max(logJ + log μ − log π, LOG_EPS). A −Infinity logJ (an underflowed or empty sum) and a
 * zero-occupancy bin (bias −Infinity) both land exactly on the floor, as in the reference.
 */
export function epilogue(ctx: ElectrodeContext, logJ: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => tf.maximum(tf.add(logJ, ctx.bias), LOG_EPS) as tf.Tensor2D);
}

/**
 * logsumexp over the encoding axis of logKmark[k,i] + logKpos[i,p] for one block (B × E) and
 * (E × P), position tile by position tile, each tile disposed before the next: (B × P). The
 * (B × E × Tp) temporary is the only large allocation.
 */
export function logSumExpJoint(logKmark: tf.Tensor2D, logKpos: tf.Tensor2D, posTile: number): tf.Tensor2D {
  const nBins = logKpos.shape[1];
  const mark = tf.expandDims(logKmark, 2);
  const parts: tf.Tensor2D[] = [];
  try {
    for (const [p0, p1] of blockRanges(nBins, Math.max(1, posTile))) {
      parts.push(
        tf.tidy(() => {
          const pos = p0 === 0 && p1 === nBins ? logKpos : sliceCols(logKpos, p0, p1);
          return tf.logSumExp(tf.add(mark, tf.expandDims(pos, 0)), 1) as tf.Tensor2D;
        }),
      );
    }
    return parts.length === 1 ? parts[0]! : tf.concat(parts, 1);
  } finally {
    mark.dispose();
    if (parts.length > 1) tf.dispose(parts);
  }
}
