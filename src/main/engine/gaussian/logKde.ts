/**
 * Log of an equal-weight Gaussian KDE, log[(1/n) Σ_i K_σ(x, s_i)], evaluated at many points.
 * Computed in log space on the device, tile by tile over the samples, merged on the device (online
 * logsumexp) and read back once, every part of KDE_PART_SAMPLES samples together (on the wasm
 * backend one kernel call for them all, the kernel never in memory), the parts merged on the host
 * in float64, so that memory stays bounded and far-away points keep their true (tiny) density
 * instead of underflowing in float32. Turning the result into a density with a float64 exp then
 * underflows exactly where the float64 reference does. logKdePending leaves the sums on the
 * device, for a caller that reads several results at once (readback/).
 */
import * as tf from '@tensorflow/tfjs-core';
import { toTensor2d } from './gaussianKernel';
import { addWork, gridKdeWork, logKdeWork, type Work } from '../model';
import { kdeColumnSums, linearPositionKernel } from '../ops';
import { allPending, pendingRead, readNow, readyRead, type PendingRead } from '../readback';

/** elements of the largest (samples × points) tile: 1 MiB per float32 temporary, so the fit's
 *  transient device memory stays small next to what the decode strategies need */
const MAX_TILE_ELEMENTS = 1 << 18;

/**
 * Samples per part of a KDE sum. The pool's workers share the occupancy part by part, and a
 * single process computes the same parts and merges them the same way, so the result does not
 * depend on how many workers there are.
 */
export const KDE_PART_SAMPLES = 1024;

/** One part's sum at each evaluation point: its largest log kernel and Σ exp(logK − max) over its samples. */
export interface KdePart {
  max: Float64Array;
  sum: Float64Array;
  /** how many samples the part summed */
  samples: number;
  /** a sample of this part is NaN: the whole KDE is NaN (NaN propagates in a sum) */
  nan: boolean;
}

export function kdePartCount(nSamples: number): number {
  return Math.ceil(nSamples / KDE_PART_SAMPLES);
}

/** Evaluation points with each NaN row replaced by zeros, and those rows. */
function cleanEvalPoints(evalPoints: Float64Array, q: number): { clean: Float64Array; nanRows: number[] } {
  const m = evalPoints.length / q;
  const nanRows: number[] = [];
  const clean = Float64Array.from(evalPoints);
  for (let k = 0; k < m; k++) {
    for (let j = 0; j < q; j++) {
      if (Number.isNaN(clean[k * q + j]!)) {
        nanRows.push(k);
        for (let jj = 0; jj < q; jj++) clean[k * q + jj] = 0;
        break;
      }
    }
  }
  return { clean, nanRows };
}

/** The samples of part `index` (rows of samples (n × q)). */
/** Whether any value is NaN: a plain loop, as `some(Number.isNaN)` costs a call per value. */
function hasNaN(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== values[i]) return true;
  return false;
}

function partSamples(samples: Float64Array, q: number, index: number): Float64Array {
  const n = samples.length / q;
  const first = index * KDE_PART_SAMPLES;
  return samples.subarray(first * q, Math.min(n, first + KDE_PART_SAMPLES) * q);
}

/**
 * Parts `indices` (ascending) of the sum over samples (n × q), at every evaluation point (m × q).
 * A part with a NaN sample is NaN. On the wasm backend one kernel call computes them all; elsewhere
 * each part goes tile by tile on the device.
 */
export function kdeParts(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[], indices: readonly number[]): Promise<KdePart[]> {
  return readNow(kdePartsPending(samples, evalPoints, q, std, indices));
}

/** kdeParts with the parts' sums still on the device, to be read with other reads (readback/). */
function kdePartsPending(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[], indices: readonly number[]): PendingRead<KdePart[]> {
  const m = evalPoints.length / q;
  const points = cleanEvalPoints(evalPoints, q).clean;
  const ofParts = indices.map((i) => partSamples(samples, q, i));
  const nanPart = (part: Float64Array): KdePart => ({ max: new Float64Array(m).fill(NaN), sum: new Float64Array(m).fill(NaN), samples: part.length / q, nan: true });
  const hasNan = ofParts.map(hasNaN);
  if (kdeColumnSums.runsFused(m, q)) {
    const computed = kernelParts(ofParts.filter((_, k) => !hasNan[k]), points, m, q, std);
    return pendingRead(computed.tensors, (values) => {
      const parts = computed.finish(values);
      let next = 0;
      return ofParts.map((part, k) => (hasNan[k] ? nanPart(part) : parts[next++]!));
    });
  }
  return allPending(ofParts.map((part, k) => (hasNan[k] ? readyRead(nanPart(part)) : opGraphPart(part, points, m, q, std))));
}

/** One part tile by tile on the device, with a running maximum and rescaled sum, left there to be read once. */
function opGraphPart(part: Float64Array, points: Float64Array, m: number, q: number, std: number[]): PendingRead<KdePart> {
  const count = part.length / q;
  const evalTensor = toTensor2d(points, m, q);
  // running max and rescaled sum stay on the device: one readback per part, not one per tile
  let runMax: tf.Tensor1D | null = null;
  let runSum: tf.Tensor1D | null = null;
  try {
    const tile = Math.max(1, Math.floor(MAX_TILE_ELEMENTS / m));
    for (let start = 0; start < count; start += tile) {
      const stop = Math.min(count, start + tile);
      const prevMax: tf.Tensor1D | null = runMax;
      const prevSum: tf.Tensor1D | null = runSum;
      const next: [tf.Tensor1D, tf.Tensor1D] = tf.tidy((): [tf.Tensor1D, tf.Tensor1D] => {
        const chunk = toTensor2d(part.subarray(start * q, stop * q), stop - start, q);
        // the per-point maximum and rescaled sum, as the position kernel computes them: one fused
        // pass per row on the wasm backend instead of two reductions across rows (each a transpose)
        const { kernel, colMax, colSum } = linearPositionKernel.run(chunk, evalTensor, std);
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
  } catch (err) {
    tf.dispose([runMax, runSum].filter((t): t is tf.Tensor1D => t !== null));
    throw err;
  } finally {
    evalTensor.dispose();
  }
  return pendingRead([runMax!, runSum!], ([mx, sm]) => ({ max: Float64Array.from(mx!), sum: Float64Array.from(sm!), samples: count, nan: false }));
}

/**
 * Parts by the fused kdeColumnSums op, all in one call (a call and a read-back per part cost more
 * than a 1 024 × 100 part itself), each kernel row formed in cache and summed without the
 * (samples × points) kernel in memory; left on the device to be read once.
 */
function kernelParts(parts: Float64Array[], points: Float64Array, m: number, q: number, std: number[], shiftByPeak = false): PendingRead<KdePart[]> {
  if (parts.length === 0) return readyRead([]);
  const rows = parts.map((p) => p.length / q);
  const [colMax, colSum] = tf.tidy(() => {
    const all = new Float64Array(rows.reduce((n, r) => n + r, 0) * q);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return kdeColumnSums.run(toTensor2d(all, all.length / q, q), toTensor2d(points, m, q), std, rows, shiftByPeak);
  });
  return pendingRead([colMax, colSum], ([mx, sm]) => rows.map((count, k) => ({
    max: Float64Array.from(mx!.subarray(k * m, (k + 1) * m)), sum: Float64Array.from(sm!.subarray(k * m, (k + 1) * m)), samples: count, nan: false,
  })));
}

/**
 * The work of parts `indices` of the sum, as kdeParts computes them: by the grid kernels where they
 * take a part (linearPositionKernel.onGrid), else as the op graph's tiles.
 */
export function kdePartsWork(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[], indices: readonly number[]): Work {
  const m = evalPoints.length / q;
  const points = cleanEvalPoints(evalPoints, q).clean;
  return addWork(...indices.map((i) => {
    const part = partSamples(samples, q, i);
    const n = part.length / q;
    return linearPositionKernel.onGrid(part, points, q, std) ? gridKdeWork(n, m, false) : logKdeWork(n, m, q);
  }));
}

/** The work of logKde (every part of the sum). */
export function logKdeWorkOf(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[]): Work {
  return kdePartsWork(samples, evalPoints, q, std, Array.from({ length: kdePartCount(samples.length / q) }, (_, i) => i));
}

/**
 * log[(1/n) Σ_i K(x, s_i)] from the parts of its sum, merged in float64 in part order: the same
 * numbers whichever process computed which part.
 */
export function mergeKdeParts(parts: readonly KdePart[], evalPoints: Float64Array, q: number): Float64Array {
  const m = evalPoints.length / q;
  const nSamples = parts.reduce((n, p) => n + p.samples, 0);
  const out = new Float64Array(m).fill(-Infinity);
  if (m === 0 || nSamples === 0) return out;
  if (parts.some((p) => p.nan)) return out.fill(NaN);
  const logN = Math.log(nSamples);
  for (let k = 0; k < m; k++) {
    let top = -Infinity;
    for (const p of parts) top = Math.max(top, p.max[k]!);
    if (top === -Infinity) continue;
    let sum = 0;
    for (const p of parts) sum += p.sum[k]! * Math.exp(p.max[k]! - top);
    out[k] = top + Math.log(sum) - logN;
  }
  for (const k of cleanEvalPoints(evalPoints, q).nanRows) out[k] = NaN;
  return out;
}

/**
 * @param samples row-major (n × q); a NaN anywhere makes every result NaN (NaN propagates in a sum)
 * @param evalPoints row-major (m × q); a NaN row gives NaN at that point
 * @returns (m,) log densities; −Infinity everywhere when n = 0 (density 0, not NaN)
 */
export function logKde(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[]): Promise<Float64Array> {
  return readNow(logKdePending(samples, evalPoints, q, std));
}

/** logKde with its sums still on the device, to be read with other reads (readback/). */
export function logKdePending(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[]): PendingRead<Float64Array> {
  const n = samples.length / q;
  const m = evalPoints.length / q;
  if (m === 0 || n === 0) return readyRead(new Float64Array(m).fill(-Infinity));
  if (hasNaN(samples)) return readyRead(new Float64Array(m).fill(NaN));
  const parts = kdePartsPending(samples, evalPoints, q, std, Array.from({ length: kdePartCount(n) }, (_, i) => i));
  return pendingRead(parts.tensors, (values) => mergeKdeParts(parts.finish(values), evalPoints, q));
}

/** Terms below this share of the kernel's peak are left out of logKdeBelowPeak's sums. */
export const BELOW_PEAK_DROPPED = 2 ** -63;

/**
 * logKde in one pass over the samples instead of two: every point's terms are scaled by the kernel's
 * peak rather than by their own largest, so terms below BELOW_PEAK_DROPPED of the peak are dropped;
 * at most n·2^−63 of the peak in all, which the caller must show to be negligible where it uses the
 * value. Null where the fused kernel does not run (another backend, fewer than its smallest number
 * of points) or a sample or point is NaN: use logKde there.
 */
export async function logKdeBelowPeak(samples: Float64Array, evalPoints: Float64Array, q: number, std: number[]): Promise<Float64Array | null> {
  const n = samples.length / q;
  const m = evalPoints.length / q;
  if (n === 0 || !kdeColumnSums.runsFused(m, q) || hasNaN(samples) || hasNaN(evalPoints)) return null;
  const parts = Array.from({ length: kdePartCount(n) }, (_, i) => partSamples(samples, q, i));
  return mergeKdeParts(await readNow(kernelParts(parts, evalPoints, m, q, std, true)), evalPoints, q);
}
