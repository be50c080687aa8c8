/**
 * Convolution of a vector over a regular 2-D grid (C order: bin ix·ny + iy) with a separable kernel
 * K(dx, dy) = Kx(|dx|) · Ky(|dy|), as two direct passes of ±h bins: along y, then along x. The
 * random walk's isotropic Gaussian on a regular grid is such a kernel (posterior-spec §2b.4), so a
 * step costs O(B · (hx + hy)) instead of the O(B · band) of its rows in interior-bin order, where
 * a row's band spans 2·hx whole columns of ny bins. The sums are float64 over non-negative terms.
 * Where WebAssembly SIMD is there, both passes run in posteriorKernels.wat (symmetricStencil) on
 * zero-padded copies, two bins at a time, each sum with the plain loops' terms in their order.
 */
import type { GridFilter } from './gridFilter';
import { posteriorKernelInstance, type PosteriorKernelExports } from './posteriorKernels';

export class SeparableConvolution implements GridFilter {
  readonly gridBins: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly alongY: Float64Array;
  private readonly simd: SimdPasses | null;

  /**
   * @param halfKernels per axis, K(0) … K(h) over bins (K(−d) = K(d), zero beyond h)
   * @param shape bins per axis [nx, ny]
   * @param simd false keeps the plain loops (the definition, for tests)
   */
  constructor(private readonly halfKernels: [Float64Array, Float64Array], shape: [number, number], { simd = true }: { simd?: boolean } = {}) {
    [this.nx, this.ny] = shape;
    this.gridBins = this.nx * this.ny;
    this.alongY = new Float64Array(this.gridBins);
    this.simd = simd ? SimdPasses.create(halfKernels, this.nx, this.ny) : null;
  }

  /**
   * out[j] = Σ_i x[i] · K(j − i) over the grid's bins; x and out are gridBins long. Each pass folds
   * the kernel's symmetry, K(d) · (x[i − d] + x[i + d]), so it multiplies half as often.
   */
  apply(x: ArrayLike<number>, out: Float64Array): void {
    if (this.simd) {
      this.simd.apply(x, out);
      return;
    }
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

const alignUp = (bytes: number): number => Math.ceil(bytes / 16) * 16;
const PAGE_BYTES = 65_536;

/**
 * The two passes in a module instance of their own: x copied into columns of ny bins with hy zeros
 * either side, the pass along y into rows of ny bins with hx zero rows above and below, the pass
 * along x over the whole grid at once (its taps ny bins apart), then the output copied out.
 */
class SimdPasses {
  private readonly xColumns: Float64Array;
  private readonly output: Float64Array;
  private readonly at: { kx: number; ky: number; x: number; alongY: number; out: number };
  private readonly hx: number;
  private readonly hy: number;

  static create(halfKernels: [Float64Array, Float64Array], nx: number, ny: number): SimdPasses | null {
    const kernels = posteriorKernelInstance();
    return kernels ? new SimdPasses(kernels, halfKernels, nx, ny) : null;
  }

  private constructor(private readonly kernels: PosteriorKernelExports, halfKernels: [Float64Array, Float64Array], private readonly nx: number, private readonly ny: number) {
    const [kx, ky] = halfKernels;
    const [hx, hy] = [kx.length - 1, ky.length - 1];
    const kxAt = 0;
    const kyAt = alignUp(8 * kx.length);
    const xAt = kyAt + alignUp(8 * ky.length);
    const alongYAt = xAt + alignUp(8 * nx * (ny + 2 * hy));
    const outAt = alongYAt + alignUp(8 * (nx + 2 * hx) * ny);
    const total = outAt + alignUp(8 * nx * ny);
    const memory = kernels.memory;
    if (memory.buffer.byteLength < total) memory.grow(Math.ceil((total - memory.buffer.byteLength) / PAGE_BYTES));
    // the pads stay zero: only the grid's own bins are ever written
    new Uint8Array(memory.buffer, 0, total).fill(0);
    new Float64Array(memory.buffer, kxAt, kx.length).set(kx);
    new Float64Array(memory.buffer, kyAt, ky.length).set(ky);
    this.xColumns = new Float64Array(memory.buffer, xAt, nx * (ny + 2 * hy));
    this.output = new Float64Array(memory.buffer, outAt, nx * ny);
    this.at = { kx: kxAt, ky: kyAt, x: xAt, alongY: alongYAt, out: outAt };
    this.hx = hx;
    this.hy = hy;
  }

  apply(x: ArrayLike<number>, out: Float64Array): void {
    const { nx, ny, hx, hy, at, kernels } = this;
    const column = ny + 2 * hy;
    for (let ix = 0; ix < nx; ix++) {
      const to = ix * column + hy;
      if (x instanceof Float64Array) this.xColumns.set(x.subarray(ix * ny, (ix + 1) * ny), to);
      else for (let iy = 0; iy < ny; iy++) this.xColumns[to + iy] = x[ix * ny + iy]!;
    }
    for (let ix = 0; ix < nx; ix++) {
      kernels.symmetricStencil(at.alongY + 8 * (hx + ix) * ny, at.x + 8 * (ix * column + hy), ny, at.ky, hy, 8);
    }
    kernels.symmetricStencil(at.out, at.alongY + 8 * hx * ny, nx * ny, at.kx, hx, 8 * ny);
    out.set(this.output);
  }
}
