/**
 * What a random-walk block's convolution offers the products and the work counts: the 1-D FFT
 * (gridConvolution.ts) and the separable 2-D passes (separableConvolution.ts) both implement it.
 */
export interface GridFilter {
  /** inputs and outputs are this many grid bins long */
  readonly gridBins: number;
  /** out[j] = Σ_i x[i] · K(j − i) over the grid, each value ≥ 0 */
  apply(x: ArrayLike<number>, out: Float64Array): void;
  /** K between two grid bins, as the block's expanded entries hold it */
  between(from: number, to: number): number;
  /** floating-point operations of one apply */
  readonly applyFlops: number;
  /** bytes one apply reads and writes beside its input */
  readonly streamBytes: number;
  /** bytes the filter keeps between applies (tables, spectra, work arrays) */
  readonly heldBytes: number;
}
