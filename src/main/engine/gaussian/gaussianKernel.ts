/**
 * Gaussian kernel building blocks on TensorFlow.js ops (kde-spec §0, §7.0): the log and linear
 * kernels by direct differences (the gaussianKernelMatrix op) and the mark kernel's GEMM form, the
 * same op graph on every backend.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { EPS } from '../model';
import { gaussianKernelMatrix } from '../ops';

/**
 * log K_σ between every sample (n × d) and every evaluation point (m × d), by direct differences:
 * (n × m). Used for position kernels and for the linear reference's mark kernel.
 */
export function logKernelDirect(samples: tf.Tensor2D, evals: tf.Tensor2D, std: number[]): tf.Tensor2D {
  return gaussianKernelMatrix.run(samples, evals, std, false);
}

/** K_σ = exp(log K_σ), (n × m), by direct differences: the linear reference's mark kernel. */
export function kernelDirect(samples: tf.Tensor2D, evals: tf.Tensor2D, std: number[]): tf.Tensor2D {
  return gaussianKernelMatrix.run(samples, evals, std, true);
}

/** Encoding marks prepared once per electrode for the GEMM form of the mark kernel. */
export interface PreparedMarks {
  /** (y/σ)ᵀ, (D × E): stored transposed because a transposed operand makes wasm's matmul ~10× slower */
  scaledT: tf.Tensor2D;
  /** |y/σ|², (1 × E) */
  sqNorm: tf.Tensor2D;
  invStd: tf.Tensor1D;
  logNorm: number;
}

export function prepareMarks(enc: tf.Tensor2D, std: number[]): PreparedMarks {
  const sd = std.map((s) => Math.max(s, EPS));
  return tf.tidy(() => {
    const invStd = tf.tensor1d(sd.map((s) => 1 / s));
    const scaled = tf.mul(enc, invStd) as tf.Tensor2D;
    const sqNorm = tf.reshape(tf.sum(tf.square(scaled), 1), [1, -1]) as tf.Tensor2D;
    return { scaledT: tf.transpose(scaled), sqNorm, invStd, logNorm: logNormaliser(sd) };
  });
}

export function disposeMarks(p: PreparedMarks): void {
  tf.dispose([p.scaledT, p.sqNorm, p.invStd]);
}

/**
 * Mark log-kernel by the expanded square (spec §7.0): c_D − ½·max(|ỹ|² + |m̃|² − 2·ỹ·m̃, 0),
 * one (B × D)·(D × E) matmul instead of B·E·D differences. Shape (B × E): decoding spikes in rows,
 * so the joint sum over encoding spikes is a plain (B × E)·(E × P) product.
 */
export function logMarkKernelGemm(p: PreparedMarks, dec: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const m = tf.mul(dec, p.invStd) as tf.Tensor2D;
    const mm = tf.sum(tf.square(m), 1, true);
    const cross = tf.matMul(m, p.scaledT);
    const sq = tf.relu(tf.sub(tf.add(mm, p.sqNorm), tf.mul(cross, 2)));
    return tf.add(tf.mul(sq, -0.5), p.logNorm) as tf.Tensor2D;
  });
}

/** Upload a row-major float64 host matrix as a float32 (rows × cols) tensor. */
export function toTensor2d(values: Float64Array, rows: number, cols: number): tf.Tensor2D {
  return tf.tensor2d(Float32Array.from(values), [rows, cols], 'float32');
}
