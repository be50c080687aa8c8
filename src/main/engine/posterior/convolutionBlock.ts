/**
 * A random-walk block as a convolution (posterior-spec §4 on a uniform grid): row i of the block is
 * N(c_j; c_i, movementVar) over interior destinations, divided by its sum Z_i, and on a grid of
 * equal steps the Gaussian depends on j − i alone, so
 *   f @ A = mask ⊙ (K ∗ (f · d / Z))     and     A @ r = (d / Z) ⊙ (K ∗ (mask · r)),
 * K the Gaussian over bins within the negligible reach the band keeps, d the block's discrete
 * factor. Taken where the band is wide enough that two FFTs cost less than the band (a fine grid):
 * it then agrees with the band's float32 entries to float32 rounding, not bit for bit.
 */
import { NEGLIGIBLE_NATS } from './continuousTransitions';
import { GridConvolution } from './gridConvolution';
import type { StateLayout } from './stateSpaceTypes';
import type { TransitionBlock } from './transitionBlocks';

export interface ConvolutionBlock {
  kind: 'convolution';
  rowStart: number;
  rows: number;
  colStart: number;
  /** the grid bin of each interior bin (the block's rows and columns) */
  gridBin: Int32Array;
  /** d / Z_i per row: the discrete factor over the row's sum (0 for a row with no sum) */
  rowScale: Float64Array;
  convolution: GridConvolution;
  /** the kernel K(0) … K(h) over bins, for expanding the block entry by entry */
  halfKernel: Float64Array;
}

/** Equal steps between every pair of neighbouring centres (to 1e-9 of a step), and that step. */
function uniformStep(centers: Float64Array): number | undefined {
  if (centers.length < 2) return undefined;
  const step = (centers[centers.length - 1]! - centers[0]!) / (centers.length - 1);
  if (!(step > 0)) return undefined;
  for (let k = 1; k < centers.length; k++) if (Math.abs(centers[k]! - centers[k - 1]! - step) > 1e-9 * step) return undefined;
  return step;
}

/** FFT work beside band work per product: about 10 flops a butterfly, two transforms, against 2 flops an entry */
function convolutionPays(rows: number, halfWidth: number, length: number): boolean {
  const band = 2 * rows * (2 * halfWidth + 1);
  const fft = 2 * 10 * (length / 2) * Math.log2(length);
  return fft < band / 2;
}

/** The block as a convolution, or null where the grid is not uniform or the band is cheaper. */
export function convolutionBlock(layout: StateLayout, block: TransitionBlock): ConvolutionBlock | null {
  const { grid, interiorBins, movementVar } = layout;
  const step = uniformStep(grid.centers);
  if (step === undefined || block.rows !== interiorBins.length || block.cols !== interiorBins.length) return null;
  const h = Math.min(grid.centers.length - 1, Math.floor(Math.sqrt(2 * NEGLIGIBLE_NATS * movementVar) / step));
  const length = 2 ** Math.ceil(Math.log2(Math.max(2, grid.centers.length + h)));
  if (!convolutionPays(block.rows, h, length)) return null;
  const scale = 1 / Math.sqrt(2 * Math.PI * movementVar);
  const halfKernel = Float64Array.from({ length: h + 1 }, (_, d) => Math.exp((-0.5 * (d * step) ** 2) / movementVar) * scale);
  // Z_i: the row's sum over interior destinations within reach, as randomWalkRow sums it
  const mask = new Float64Array(grid.centers.length);
  for (const b of interiorBins) mask[b] = 1;
  const convolution = new GridConvolution(halfKernel, grid.centers.length);
  const sums = new Float64Array(grid.centers.length);
  convolution.apply(mask, sums);
  const rowScale = Float64Array.from(interiorBins, (b) => (sums[b]! > 0 ? block.discrete / sums[b]! : 0));
  return { kind: 'convolution', rowStart: block.rowStart, rows: block.rows, colStart: block.colStart, gridBin: interiorBins, rowScale, convolution, halfKernel };
}

/** Row i of the block over its columns, float32 as the band would hold it (for the dense expansion and tests). */
export function convolutionRow(b: ConvolutionBlock, i: number, out: Float32Array): void {
  const h = b.halfKernel.length - 1;
  const from = b.gridBin[i]!;
  for (let j = 0; j < b.gridBin.length; j++) {
    const d = Math.abs(b.gridBin[j]! - from);
    out[j] = d > h ? 0 : b.rowScale[i]! * b.halfKernel[d]!;
  }
}
