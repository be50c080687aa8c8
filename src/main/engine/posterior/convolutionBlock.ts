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
import { gridAxes, gridDims, type PlaceGrid } from './grid';
import { GridConvolution } from './gridConvolution';
import type { GridFilter } from './gridFilter';
import { SeparableConvolution } from './separableConvolution';
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
  /** the 1-D FFT, or the separable passes of a 2-D grid */
  convolution: GridFilter;
}

/** Equal steps between every pair of neighbouring values (to 1e-9 of a step), and that step. */
function uniformStep(values: ArrayLike<number>): number | undefined {
  if (values.length < 2) return undefined;
  const step = (values[values.length - 1]! - values[0]!) / (values.length - 1);
  if (!(step > 0)) return undefined;
  for (let k = 1; k < values.length; k++) if (Math.abs(values[k]! - values[k - 1]! - step) > 1e-9 * step) return undefined;
  return step;
}

/** FFT work beside band work per product: about 10 flops a butterfly, two transforms, against 2 flops an entry */
function convolutionPays(rows: number, halfWidth: number, length: number): boolean {
  const band = 2 * rows * (2 * halfWidth + 1);
  const fft = 2 * 10 * (length / 2) * Math.log2(length);
  return fft < band / 2;
}

/** The Gaussian's factor along one axis of `step`, at 0 … h bins, within the negligible reach. */
function axisKernel(step: number, bins: number, movementVar: number): Float64Array {
  const h = Math.min(bins - 1, Math.floor(Math.sqrt(2 * NEGLIGIBLE_NATS * movementVar) / step));
  const scale = 1 / Math.sqrt(2 * Math.PI * movementVar);
  return Float64Array.from({ length: h + 1 }, (_, d) => Math.exp((-0.5 * (d * step) ** 2) / movementVar) * scale);
}

/**
 * The axes' steps of a regular 2-D grid in C order (bin ix·ny + iy at (x_ix, y_iy)), or undefined
 * where the centres are not such a grid (a file's own grid may be anything).
 */
function regularSteps2d(grid: PlaceGrid): [number, number] | undefined {
  const [nx, ny] = grid.shape as [number, number];
  const c = grid.centers;
  const [xs, ys] = gridAxes(grid) as [Float64Array, Float64Array];
  for (let ix = 0; ix < nx; ix++) {
    for (let iy = 0; iy < ny; iy++) {
      const k = (ix * ny + iy) * 2;
      if (c[k] !== xs[ix] || c[k + 1] !== ys[iy]) return undefined;
    }
  }
  const sx = nx > 1 ? uniformStep(xs) : 1;
  const sy = ny > 1 ? uniformStep(ys) : 1;
  return sx !== undefined && sy !== undefined ? [sx, sy] : undefined;
}

/** The filter of the grid's random walk, or null where the grid is not uniform or the band is cheaper. */
function filterOf(grid: PlaceGrid, rows: number, movementVar: number): GridFilter | null {
  const bins = grid.interior.length;
  if (gridDims(grid) === 2 && grid.shape) {
    const steps = regularSteps2d(grid);
    if (!steps) return null;
    const [nx, ny] = grid.shape as [number, number];
    // always cheaper than the band: a row's band in interior order spans ±hx whole columns of ny bins
    return new SeparableConvolution([axisKernel(steps[0], nx, movementVar), axisKernel(steps[1], ny, movementVar)], [nx, ny]);
  }
  if (gridDims(grid) !== 1) return null;
  const step = uniformStep(grid.centers);
  if (step === undefined) return null;
  const halfKernel = axisKernel(step, bins, movementVar);
  const h = halfKernel.length - 1;
  const length = 2 ** Math.ceil(Math.log2(Math.max(2, bins + h)));
  return convolutionPays(rows, h, length) ? new GridConvolution(halfKernel, bins) : null;
}

/** The block as a convolution, or null where the grid is not uniform or the band is cheaper. */
export function convolutionBlock(layout: StateLayout, block: TransitionBlock): ConvolutionBlock | null {
  const { grid, interiorBins, movementVar } = layout;
  if (block.rows !== interiorBins.length || block.cols !== interiorBins.length) return null;
  const convolution = filterOf(grid, block.rows, movementVar);
  if (!convolution) return null;
  // Z_i: the row's sum over interior destinations within reach, as the random walk's row sums it
  const mask = new Float64Array(convolution.gridBins);
  for (const b of interiorBins) mask[b] = 1;
  const sums = new Float64Array(convolution.gridBins);
  convolution.apply(mask, sums);
  const rowScale = Float64Array.from(interiorBins, (b) => (sums[b]! > 0 ? block.discrete / sums[b]! : 0));
  return { kind: 'convolution', rowStart: block.rowStart, rows: block.rows, colStart: block.colStart, gridBin: interiorBins, rowScale, convolution };
}

/** Row i of the block over its columns, float32 as the band would hold it (for the dense expansion and tests). */
export function convolutionRow(b: ConvolutionBlock, i: number, out: Float32Array): void {
  const from = b.gridBin[i]!;
  for (let j = 0; j < b.gridBin.length; j++) out[j] = b.rowScale[i]! * b.convolution.between(from, b.gridBin[j]!);
}
