/**
 * The engine's GEMM on packed panels (simd/kdeProduct.wat): a factor packed once in panels of eight
 * columns, its all-zero panels left out, then products with it that fold into a running scaled sum
 * in one call, without the (B × P) intermediates of the op graph. Fused only: runsFused says where;
 * elsewhere the caller multiplies on the op graph.
 */
import * as tf from '@tensorflow/tfjs-core';
import { MIN_KERNEL_COLUMNS, PACK_PANELS_KERNEL, PANEL_COLUMNS, SCALED_CHUNK_PRODUCT_KERNEL } from '../kernels';
import { fusedKernelRuns, runFusedKernelOutputs } from './fusedKernel';

/** Bins per panel of a packed factor: a stored panel costs this many multiply-adds per weight. */
export const COLUMNS_PER_PANEL = PANEL_COLUMNS;

/** A factor in panels: the panels that hold anything but 0, and a flag per panel saying which those are. */
export interface PackedFactor {
  packed: tf.Tensor3D;
  flags: tf.Tensor1D;
}

/** Σ so far with its scale M (a scalar): the compensated fold's running state. */
export interface ScaledSum {
  scale: tf.Scalar;
  sum: tf.Tensor2D;
}

/** Whether the packed product runs here for a factor of this many columns. */
export function runsFused(columns: number): boolean {
  return fusedKernelRuns(SCALED_CHUNK_PRODUCT_KERNEL) && columns >= MIN_KERNEL_COLUMNS;
}

/** The (C × P) factor in panels for foldChunk, its panels of zeros left out. */
export function pack(factor: tf.Tensor2D): PackedFactor {
  const [packed, flags] = runFusedKernelOutputs(PACK_PANELS_KERNEL, { x: factor }, {});
  return { packed: packed as tf.Tensor3D, flags: flags as tf.Tensor1D };
}

/**
 * One step of the scaled fold with a packed factor: scale = max(prev.scale, chunkScale) and
 * sum = prev.sum·e^(prev.scale − scale) + (w·factor)·e^(chunkScale − scale); the first chunk is
 * taken as it is. Frees prev. Measured against the op graph by `npm run bench:kernels`.
 */
export function foldChunk(prev: ScaledSum | null, w: tf.Tensor2D, chunkScale: tf.Scalar, { packed, flags }: PackedFactor, columns: number): ScaledSum {
  const inputs: tf.NamedTensorMap = prev === null
    ? { w, chunkScale, packed, flags }
    : { w, chunkScale, packed, flags, prevSum: prev.sum, prevScale: prev.scale };
  const [sum, scale] = runFusedKernelOutputs(SCALED_CHUNK_PRODUCT_KERNEL, inputs, { columns });
  if (prev !== null) tf.dispose([prev.sum, prev.scale]);
  return { sum: sum as tf.Tensor2D, scale: scale as tf.Scalar };
}

/**
 * a·factor (B × P) with nothing to fold: the first chunk at scale 0, so e^(0 − 0) = 1 multiplies
 * the sums exactly (the reference's GEMM, and the calibration's).
 */
export function matMul(a: tf.Tensor2D, packed: PackedFactor, columns: number): tf.Tensor2D {
  return tf.tidy(() => foldChunk(null, a, tf.scalar(0), packed, columns).sum);
}
