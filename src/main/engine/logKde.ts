/**
 * Log of an equal-weight Gaussian KDE, log[(1/n) Σ_i K_σ(x, s_i)], evaluated at many points.
 * Computed in log space on the device, tile by tile over the samples, and merged on the host in
 * float64 (online logsumexp), so that memory stays bounded and far-away points keep their true
 * (tiny) density instead of underflowing in float32. Turning the result into a density with a
 * float64 exp then underflows exactly where the float64 reference does.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logKernelDirect, toTensor2d } from './kernels';

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

  const evalTensor = toTensor2d(cleanEval, m, q);
  const sum = new Float64Array(m);
  try {
    const tile = Math.max(1, Math.floor(MAX_TILE_ELEMENTS / m));
    for (let start = 0; start < n; start += tile) {
      const stop = Math.min(n, start + tile);
      const [mxT, sT] = tf.tidy(() => {
        const chunk = toTensor2d(samples.subarray(start * q, stop * q), stop - start, q);
        const lk = logKernelDirect(chunk, evalTensor, std);
        const mx = tf.max(lk, 0);
        const s = tf.sum(tf.exp(tf.sub(lk, mx)), 0);
        return [mx, s];
      });
      const [mx, s] = await Promise.all([mxT.data(), sT.data()]);
      tf.dispose([mxT, sT]);
      for (let k = 0; k < m; k++) {
        const a = out[k]!;
        const b = mx[k]!;
        const top = Math.max(a, b);
        sum[k] = sum[k]! * Math.exp(a - top) + s[k]! * Math.exp(b - top);
        out[k] = top;
      }
    }
  } finally {
    evalTensor.dispose();
  }
  const logN = Math.log(n);
  for (let k = 0; k < m; k++) out[k] = out[k]! + Math.log(sum[k]!) - logN;
  for (const k of nanRows) out[k] = NaN;
  return out;
}
