/**
 * A random-walk block applied as a convolution (convolutionBlock.ts) inside a transition product:
 * its interior bins scattered onto the grid, the grid's convolution, and the result gathered back
 * and added to the product's output. The plain loops and the SIMD product (kernelProduct.ts) both
 * call these between their other blocks, in block order, so their sums keep the same bits.
 */
import type { ConvolutionBlock } from './convolutionBlock';

/** out += mask ⊙ (K ∗ (f · d / Z)), the interior bins scattered onto the grid and gathered back. */
export function convolutionForward(b: ConvolutionBlock, f: Float32Array, offset: number, scratch: ConvolutionScratch, out: Float64Array): void {
  const { grid, result } = scratch.of(b);
  grid.fill(0);
  const rowBase = offset + b.rowStart;
  for (let i = 0; i < b.rows; i++) grid[b.gridBin[i]!] = f[rowBase + i]! * b.rowScale[i]!;
  b.convolution.apply(grid, result);
  for (let j = 0; j < b.rows; j++) out[b.colStart + j]! += result[b.gridBin[j]!]!;
}

/** out += (d / Z) ⊙ (K ∗ (mask · r)): the kernel is symmetric, so the same convolution. */
export function convolutionBackward(b: ConvolutionBlock, r: Float64Array, scratch: ConvolutionScratch, out: Float64Array): void {
  const { grid, result } = scratch.of(b);
  grid.fill(0);
  for (let j = 0; j < b.rows; j++) grid[b.gridBin[j]!] = r[b.colStart + j]!;
  b.convolution.apply(grid, result);
  for (let i = 0; i < b.rows; i++) out[b.rowStart + i]! += b.rowScale[i]! * result[b.gridBin[i]!]!;
}

/** Grid-long buffers for the convolution blocks, allocated once per product. */
export class ConvolutionScratch {
  private grid = new Float64Array(0);
  private result = new Float64Array(0);

  of(b: ConvolutionBlock): { grid: Float64Array; result: Float64Array } {
    if (this.grid.length !== b.convolution.gridBins) {
      this.grid = new Float64Array(b.convolution.gridBins);
      this.result = new Float64Array(b.convolution.gridBins);
    }
    return { grid: this.grid, result: this.result };
  }
}
