/**
 * Convolution of a vector over a regular 2-D grid (C order: bin ix·ny + iy) with a separable kernel
 * K(dx, dy) = Kx(|dx|) · Ky(|dy|), as two direct passes of ±h bins: along y, then along x. The
 * random walk's isotropic Gaussian on a regular grid is such a kernel (posterior-spec §2b.4), so a
 * step costs O(B · (hx + hy)) instead of the O(B · band) of its rows in interior-bin order, where
 * a row's band spans 2·hx whole columns of ny bins. The sums are float64 over non-negative terms.
 */
import type { GridFilter } from './gridFilter';

export class SeparableConvolution implements GridFilter {
  readonly gridBins: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly alongY: Float64Array;

  /**
   * @param halfKernels per axis, K(0) … K(h) over bins (K(−d) = K(d), zero beyond h)
   * @param shape bins per axis [nx, ny]
   */
  constructor(private readonly halfKernels: [Float64Array, Float64Array], shape: [number, number]) {
    [this.nx, this.ny] = shape;
    this.gridBins = this.nx * this.ny;
    this.alongY = new Float64Array(this.gridBins);
  }

  /** out[j] = Σ_i x[i] · K(j − i) over the grid's bins; x and out are gridBins long. */
  apply(x: ArrayLike<number>, out: Float64Array): void {
    const { nx, ny, alongY } = this;
    const [kx, ky] = this.halfKernels;
    const hy = ky.length - 1;
    const hx = kx.length - 1;
    for (let ix = 0; ix < nx; ix++) {
      const row = ix * ny;
      for (let iy = 0; iy < ny; iy++) {
        const lo = Math.max(0, iy - hy);
        const hi = Math.min(ny - 1, iy + hy);
        let sum = 0;
        for (let j = lo; j <= hi; j++) sum += x[row + j]! * ky[Math.abs(j - iy)]!;
        alongY[row + iy] = sum;
      }
    }
    out.fill(0, 0, this.gridBins);
    for (let ix = 0; ix < nx; ix++) {
      const lo = Math.max(0, ix - hx);
      const hi = Math.min(nx - 1, ix + hx);
      const target = ix * ny;
      for (let jx = lo; jx <= hi; jx++) {
        const weight = kx[Math.abs(jx - ix)]!;
        const source = jx * ny;
        for (let iy = 0; iy < ny; iy++) out[target + iy]! += weight * alongY[source + iy]!;
      }
    }
  }

  /** K between two bins of the grid (0 beyond either axis' reach). */
  between(from: number, to: number): number {
    const [kx, ky] = this.halfKernels;
    const dx = Math.abs(Math.floor(to / this.ny) - Math.floor(from / this.ny));
    const dy = Math.abs((to % this.ny) - (from % this.ny));
    return dx < kx.length && dy < ky.length ? kx[dx]! * ky[dy]! : 0;
  }

  get applyFlops(): number {
    const [kx, ky] = this.halfKernels;
    return 2 * this.gridBins * (2 * kx.length - 1 + 2 * ky.length - 1);
  }

  /** the input, the pass along y and the output, each read or written once a pass */
  get streamBytes(): number {
    return 8 * 3 * this.gridBins;
  }

  get heldBytes(): number {
    return 8 * this.gridBins;
  }
}
