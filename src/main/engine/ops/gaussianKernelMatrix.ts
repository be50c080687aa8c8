/**
 * The Gaussian kernel matrix between samples (n × d) and points (m × d) by direct differences:
 * log K or, `linear`, K = exp(log K), (n × m). The fused kernel (wasm's SIMD, webgpu's WGSL)
 * performs the same float operations in the same order as the op graph and, for the linear kernel,
 * the backend's Exp, in one pass; the op graph takes five passes over the (n × m) memory.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../hostMath';
import { GAUSS_KERNEL } from '../kernels';
import { gaussKernelTakes } from '../webgpu';
import { fusedKernelBackend, runFusedKernel } from './fusedKernel';

/** Whether the active backend's kernel takes samples of d coordinates. */
function runsFused(d: number): boolean {
  const on = fusedKernelBackend(GAUSS_KERNEL);
  return on !== null && (on !== 'webgpu' || gaussKernelTakes(d));
}

export function run(samples: tf.Tensor2D, points: tf.Tensor2D, std: number[], linear: boolean): tf.Tensor2D {
  return tf.tidy(() => {
    const inv = tf.tensor1d(std.map((s) => 1 / s));
    const a = tf.mul(samples, inv);
    const b = tf.mul(points, inv);
    const c = logNormaliser(std);
    if (runsFused(samples.shape[1])) return runFusedKernel(GAUSS_KERNEL, { a, bt: tf.transpose(b) }, { c, linear }) as tf.Tensor2D;
    const sq = tf.sum(tf.squaredDifference(tf.expandDims(a, 1), tf.expandDims(b, 0)), 2) as tf.Tensor2D;
    const logK = tf.add(tf.mul(sq, -0.5), c) as tf.Tensor2D;
    return linear ? tf.exp(logK) : logK;
  });
}
