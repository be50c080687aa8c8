/**
 * Online accumulators over encoding-spike chunks: the compensated (max-rescaled matmul) fold of
 * kde-spec §7e′ and the logsumexp fold of §7d. Each fold takes the running state, disposes it and
 * returns the new one, so a loop over chunks holds one state at a time.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { ScaledSum } from '../ops';

/** Σ_i exp(c_i − M)·W'[i,k]·P'[i,p] so far, with its scale M (a scalar). */
export type CompensatedState = ScaledSum;

/**
 * Folds one chunk: logKmark (B × C), its position factor (C × P) with maxima a (1 × C).
 * c_i = a_i + b_i − log E with b_i = max over the block; the weight exp(c_i − M) goes on the mark
 * factor, which stays in [0, 1]; the product is a plain (B × C)·(C × P) matmul.
 */
export function foldCompensated(
  prev: CompensatedState | null,
  logKmark: tf.Tensor2D,
  rowMax: tf.Tensor2D,
  factor: tf.Tensor2D,
  logE: number,
): CompensatedState {
  const next = tf.tidy(() => {
    const b = tf.max(logKmark, 0, true);
    const c = tf.sub(tf.add(rowMax, b), logE);
    const chunkMax = tf.max(c) as tf.Scalar;
    const scale = (prev === null ? chunkMax : tf.maximum(prev.scale, chunkMax)) as tf.Scalar;
    const w = tf.mul(tf.exp(tf.sub(logKmark, b)), tf.exp(tf.sub(c, scale)));
    const contrib = tf.matMul(w, factor) as tf.Tensor2D;
    const sum =
      prev === null ? contrib : (tf.add(tf.mul(prev.sum, tf.exp(tf.sub(prev.scale, scale))), contrib) as tf.Tensor2D);
    return { scale, sum };
  });
  if (prev !== null) tf.dispose([prev.scale, prev.sum]);
  return next;
}

/** log J of a compensated state: log Σ + M; an underflowed (zero) Σ gives −Infinity → the floor. */
/**
 * The same fold when a chunk's weights arrive already scaled by their own C*_chunk:
 * Σ ← Σ·exp(C*_prev − C*) + (w·factor)·exp(C*_chunk − C*), C* the larger of the two. With one
 * chunk it is exactly foldCompensated's first step. The wasm path runs it as one kernel
 * (ops/packedProduct.ts, foldChunk); this op graph is what that kernel is measured against.
 */
export function foldScaledChunk(prev: CompensatedState | null, w: tf.Tensor2D, chunkScale: tf.Scalar, factor: tf.Tensor2D): CompensatedState {
  const next = tf.tidy(() => {
    const contrib = tf.matMul(w, factor) as tf.Tensor2D;
    if (prev === null) return { scale: tf.clone(chunkScale), sum: contrib };
    const scale = tf.maximum(prev.scale, chunkScale) as tf.Scalar;
    const sum = tf.add(
      tf.mul(prev.sum, tf.exp(tf.sub(prev.scale, scale))),
      tf.mul(contrib, tf.exp(tf.sub(chunkScale, scale))),
    ) as tf.Tensor2D;
    return { scale, sum };
  });
  if (prev !== null) tf.dispose([prev.scale, prev.sum]);
  return next;
}

export function finishCompensated(state: CompensatedState): tf.Tensor2D {
  const logJ = tf.tidy(() => tf.add(tf.log(state.sum), state.scale) as tf.Tensor2D);
  tf.dispose([state.scale, state.sum]);
  return logJ;
}

/** Running logsumexp: logaddexp(prev, partial), disposing both inputs. */
export function foldLogSumExp(prev: tf.Tensor2D | null, partial: tf.Tensor2D): tf.Tensor2D {
  if (prev === null) return partial;
  const next = tf.tidy(() => {
    const mx = tf.maximum(prev, partial);
    const sum = tf.add(tf.exp(tf.sub(prev, mx)), tf.exp(tf.sub(partial, mx)));
    return tf.add(mx, tf.log(sum)) as tf.Tensor2D;
  });
  tf.dispose([prev, partial]);
  return next;
}
