/**
 * Log of an equal-weight Gaussian KDE, log[(1/n) Σ_i K_σ(x, s_i)], evaluated at many points.
 * Computed in log space on the device, tile by tile over the samples, merged on the device (online
 * logsumexp) and read back once, so that memory stays bounded and far-away points keep their true
 * (tiny) density instead of underflowing in float32. Turning the result into a density with a
 * float64 exp then underflows exactly where the float64 reference does.
 */
import * as tf from '@tensorflow/tfjs-core';
import { linearPositionKernel, toTensor2d } from './kernels';

/** elements of the largest (samples × points) tile: 1 MiB per float32 temporary, so the fit's
 *  transient device memory stays small next to what the decode strategies need */
const MAX_TILE_ELEMENTS = 1 << 18;

/**
 * @param samples row-major (n × q); a NaN anywhere makes every result NaN (NaN propagates in a sum)
 * @param evalPoints row-major (m × q); a NaN row gives NaN at that point
 * @returns (m,) log densities; −Infinity everywhere when n = 0 (density 0, not NaN)
 */
export async function logKde(
  samples: Float64Array,
  evalPoints: Float64Array,
  q: number,
  std: number[],
): Promise<Float64Array> {
  const n = samples.length / q;
  const m = evalPoints.length / q;
  const out = new Float64Array(m).fill(-Infinity);
  if (m === 0 || n === 0) return out;
  if (samples.some(Number.isNaN)) return out.fill(NaN);

  const nanRows: number[] = [];
  const cleanEval = Float64Array.from(evalPoints);
  for (let k = 0; k < m; k++) {
    for (let j = 0; j < q; j++) {
      if (Number.isNaN(cleanEval[k * q + j]!)) {
        nanRows.push(k);
        for (let jj = 0; jj < q; jj++) cleanEval[k * q + jj] = 0;
        break;
      }
    }
  }

  const sum = new Float64Array(m);
  const evalTensor = toTensor2d(cleanEval, m, q);
  // running max and rescaled sum stay on the device: one readback at the end, not one per tile
  let runMax: tf.Tensor1D | null = null;
  let runSum: tf.Tensor1D | null = null;
  try {
    const tile = Math.max(1, Math.floor(MAX_TILE_ELEMENTS / m));
    for (let start = 0; start < n; start += tile) {
      const stop = Math.min(n, start + tile);
      const prevMax: tf.Tensor1D | null = runMax;
      const prevSum: tf.Tensor1D | null = runSum;
      const next: [tf.Tensor1D, tf.Tensor1D] = tf.tidy((): [tf.Tensor1D, tf.Tensor1D] => {
        const chunk = toTensor2d(samples.subarray(start * q, stop * q), stop - start, q);
        // the per-point maximum and rescaled sum, as the position kernel computes them: one fused
        // pass per row on the wasm backend instead of two reductions across rows (each a transpose)
        const { kernel, colMax, colSum } = linearPositionKernel(chunk, evalTensor, std);
        kernel.dispose();
        const mx = tf.reshape(colMax, [-1]) as tf.Tensor1D;
        const sum = tf.reshape(colSum, [-1]) as tf.Tensor1D;
        if (prevMax === null || prevSum === null) return [mx, sum];
        const top = tf.maximum(prevMax, mx) as tf.Tensor1D;
        const merged: tf.Tensor1D = tf.add(tf.mul(prevSum, tf.exp(tf.sub(prevMax, top))), tf.mul(sum, tf.exp(tf.sub(mx, top))));
        return [top, merged];
      });
      [runMax, runSum] = next;
      tf.dispose([prevMax, prevSum].filter((t): t is tf.Tensor1D => t !== null));
    }
    const [mx, sm] = await Promise.all([runMax!.data(), runSum!.data()]);
    for (let k = 0; k < m; k++) {
      out[k] = mx[k]!;
      sum[k] = sm[k]!;
    }
  } finally {
    tf.dispose([evalTensor, ...[runMax, runSum].filter((t): t is tf.Tensor1D => t !== null)]);
  }
  const logN = Math.log(n);
  for (let k = 0; k < m; k++) out[k] = out[k]! + Math.log(sum[k]!) - logN;
  for (const k of nanRows) out[k] = NaN;
  return out;
}
