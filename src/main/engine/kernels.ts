/**
 * Gaussian kernel building blocks on TensorFlow.js ops (kde-spec §0, §7.0). Everything here is
 * written with tf.* functions (tfjs-core has no chained ops) and is the same op graph on every
 * backend.
 */
import * as tf from '@tensorflow/tfjs-core';
import { EPS, FLUSH_BELOW, flushIsSafe, flushThreshold, HALF_LOG_2PI } from './model';
import { gridApplies } from './simd';
import { GAUSS_KERNEL, hasWasmKernels, LINEAR_POSITION_KERNEL, MIN_KERNEL_COLUMNS, type GaussAttrs, type LinearPositionKernelAttrs } from './simd';

/** Σ_j (−ln σ_j − ½ ln 2π): log-normaliser of a product Gaussian with widths σ. */
export function logNormaliser(std: number[]): number {
  return -std.reduce((s, v) => s + Math.log(v) + HALF_LOG_2PI, 0);
}

/**
 * Whether an electrode's position kernels and weights may drop entries below 2^−63 of their maxima
 * (model/flush.ts), from its kernel widths and its largest finite bias: the fit that keeps its
 * linear position kernel and a strategy that rebuilds it decide alike, so they build the same bits.
 */
export function electrodeFlushIsSafe(positionStd: number[], waveformStd: number[], maxBias: number): boolean {
  return flushIsSafe(...electrodeLogNormalisers(positionStd, waveformStd), maxBias);
}

/** The largest τ below which the same bound lets an electrode's terms drop (model/flush.ts flushThreshold). */
export function electrodeFlushThreshold(positionStd: number[], waveformStd: number[], maxBias: number): number {
  return flushThreshold(...electrodeLogNormalisers(positionStd, waveformStd), maxBias);
}

/** The position and mark kernels' log-normalisers as the flush bound takes them (mark widths clipped below at EPS). */
function electrodeLogNormalisers(positionStd: number[], waveformStd: number[]): [number, number] {
  return [logNormaliser(positionStd), logNormaliser(waveformStd.map((s) => Math.max(s, EPS)))];
}

/**
 * log K_σ between every sample (n × d) and every evaluation point (m × d), by direct differences:
 * (n × m). Used for position kernels and for the linear reference's mark kernel.
 */
export function logKernelDirect(samples: tf.Tensor2D, evals: tf.Tensor2D, std: number[]): tf.Tensor2D {
  return gaussianKernel(samples, evals, std, false);
}

/** K_σ = exp(log K_σ), (n × m), by direct differences: the linear reference's mark kernel. */
export function kernelDirect(samples: tf.Tensor2D, evals: tf.Tensor2D, std: number[]): tf.Tensor2D {
  return gaussianKernel(samples, evals, std, true);
}

/**
 * On the wasm backend one pass of the engine's SIMD kernel (simd/kdeKernels.wat), which performs the
 * same float operations in the same order as the op graph below and, for the linear kernel, the
 * backend's (replaced) Exp; elsewhere the op graph, five passes over the (n × m) memory.
 */
function gaussianKernel(samples: tf.Tensor2D, evals: tf.Tensor2D, std: number[], linear: boolean): tf.Tensor2D {
  return tf.tidy(() => {
    const inv = tf.tensor1d(std.map((s) => 1 / s));
    const a = tf.mul(samples, inv);
    const b = tf.mul(evals, inv);
    const c = logNormaliser(std);
    if (hasWasmKernels()) {
      const attrs: GaussAttrs = { c, linear };
      return tf.engine().runKernel(GAUSS_KERNEL, { a, bt: tf.transpose(b) }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor2D;
    }
    const sq = tf.sum(tf.squaredDifference(tf.expandDims(a, 1), tf.expandDims(b, 0)), 2) as tf.Tensor2D;
    const logK = tf.add(tf.mul(sq, -0.5), c) as tf.Tensor2D;
    return linear ? tf.exp(logK) : logK;
  });
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

/**
 * Whether the wasm kernels evaluate this one-dimensional Gaussian KDE of samples (n) at points (m),
 * host values, on the points' uniform grid (simd/uniformGrid.ts: no exp per entry), judged on the
 * float32 values over the width the kernels read, with the kernels' own test. `rowsShifted`: each
 * row divided by its maximum, as the compensated position factor is (its normaliser cancels).
 */
export function kdeOnGrid(samples: ArrayLike<number>, points: ArrayLike<number>, q: number, std: number[], rowsShifted = false): boolean {
  if (!hasWasmKernels() || q !== 1 || points.length < MIN_KERNEL_COLUMNS) return false;
  const inv = Math.fround(1 / std[0]!);
  const overWidth = (v: ArrayLike<number>): Float32Array => {
    const out = new Float32Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = Math.fround(v[i]!) * inv;
    return out;
  };
  return gridApplies(overWidth(samples), overWidth(points), logNormaliser(std), rowsShifted);
}

/**
 * The linear position kernel K[i, p] = exp(logK[i, p]) computed as exp(logK − m_p)·exp(m_p), with
 * m_p the per-bin maximum over spikes, so the fit (which needs the rescaled column sums for the ground
 * process) and the reference strategy build it with one formula and get the same bits, whichever of
 * them builds it (with `flush` as electrodeFlushIsSafe says, entries below 2^−63·e^{m_p} are 0).
 * Returns the kernel (E × P), m (1 × P) and the rescaled column sums (1 × P).
 */
export function linearPositionKernel(
  positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush = false,
): { kernel: tf.Tensor2D; colMax: tf.Tensor; colSum: tf.Tensor } {
  return tf.tidy(() => {
    if (hasWasmKernels() && centers.shape[0] >= MIN_KERNEL_COLUMNS) {
      // one SIMD pass per row instead of transposing reductions: the same formula, row-order sums;
      // on a uniform one-dimensional grid, no exp per entry (simd/uniformGrid.ts)
      const inv = tf.tensor1d(std.map((s) => 1 / s));
      const attrs: LinearPositionKernelAttrs = { c: logNormaliser(std), flush: flush ? FLUSH_BELOW : 0 };
      const inputs = { a: tf.mul(positions, inv), bt: tf.transpose(tf.mul(centers, inv)) };
      const [kernel, colMax, colSum] = tf.engine().runKernel(LINEAR_POSITION_KERNEL, inputs, attrs as unknown as tf.NamedAttrMap) as tf.Tensor[];
      return { kernel: kernel as tf.Tensor2D, colMax: colMax!, colSum: colSum! };
    }
    const logK = logKernelDirect(positions, centers, std);
    const colMax = tf.max(logK, 0);
    const scaled = tf.exp(tf.sub(logK, colMax));
    return { kernel: tf.mul(scaled, tf.exp(colMax)) as tf.Tensor2D, colMax, colSum: tf.sum(scaled, 0) };
  });
}
