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

  /**
   * out[j] = Σ_i x[i] · K(j − i) over the grid's bins; x and out are gridBins long. Each pass folds
   * the kernel's symmetry, K(d) · (x[i − d] + x[i + d]), so it multiplies half as often.
   */
  apply(x: ArrayLike<number>, out: Float64Array): void {
    const { nx, ny, alongY } = this;
    const [kx, ky] = this.halfKernels;
    for (let ix = 0; ix < nx; ix++) foldedPass(x, ix * ny, ny, ky, alongY, ix * ny);
    const hx = kx.length - 1;
    const k0 = kx[0]!;
    for (let ix = 0; ix < nx; ix++) {
      const target = ix * ny;
      for (let iy = 0; iy < ny; iy++) out[target + iy] = k0 * alongY[target + iy]!;
      for (let d = 1; d <= hx; d++) {
        const w = kx[d]!;
        const below = ix - d >= 0 ? (ix - d) * ny : -1;
        const above = ix + d < nx ? (ix + d) * ny : -1;
        if (below >= 0 && above >= 0) {
          for (let iy = 0; iy < ny; iy++) out[target + iy]! += w * (alongY[below + iy]! + alongY[above + iy]!);
        } else if (below >= 0 || above >= 0) {
          const source = below >= 0 ? below : above;
          for (let iy = 0; iy < ny; iy++) out[target + iy]! += w * alongY[source + iy]!;
        }
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

/** The n consecutive values from x[from], convolved with the half kernel k, into out[to…]. */
function foldedPass(x: ArrayLike<number>, from: number, n: number, k: Float64Array, out: Float64Array, to: number): void {
  const h = k.length - 1;
  const k0 = k[0]!;
  for (let i = 0; i < n; i++) {
    let sum = k0 * x[from + i]!;
    const both = Math.min(h, i, n - 1 - i);
    let d = 1;
    for (; d <= both; d++) sum += k[d]! * (x[from + i - d]! + x[from + i + d]!);
    // past one end, only the other side is in the grid
    const downTo = Math.min(h, i);
    for (let e = d; e <= downTo; e++) sum += k[e]! * x[from + i - e]!;
    const upTo = Math.min(h, n - 1 - i);
    for (let e = d; e <= upTo; e++) sum += k[e]! * x[from + i + e]!;
    out[to + i] = sum;
  }
}
