/**
 * Convolution of a vector over a uniform 1-D grid with a fixed symmetric kernel, through a real FFT
 * (one complex FFT of half the length, its even and odd samples as real and imaginary parts):
 * out[j] = Σ_i x[i] · K(j − i) in O(L log L) for an FFT length L ≥ grid + half-width, instead of
 * O(grid · kernel width). On a fine grid the random walk's kernel spans hundreds of bins (a
 * movement σ of 2.45 cm is ±570 bins of 0.1 cm within its negligible reach), where a band product
 * costs more than two FFTs.
 *
 * In float64; the FFT's rounding is about 1e-16 of the largest output, so an output whose true
 * value is far below that (a tail of the Gaussian) comes out as rounding noise: negative noise is
 * set to 0, as a probability cannot be negative.
 */
import type { GridFilter } from './gridFilter';

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

export class GridConvolution implements GridFilter {
  /** the FFT length L of the real transform; the complex one beneath it is L / 2 long */
  readonly length: number;
  private readonly half: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  /** the spectrum's bins 0 … L/2 between the forward and the inverse pass */
  private readonly specRe: Float64Array;
  private readonly specIm: Float64Array;
  /** cos and sin of 2πk/L, k = 0 … L/2 */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;
  /** the kernel's spectrum (real: the kernel is symmetric), divided by L/2 for the unscaled inverse */
  private readonly spectrum: Float64Array;

  /**
   * @param halfKernel K(0), K(1) … K(h): the kernel at 0 … h bins (K(−d) = K(d), zero beyond h)
   * @param gridBins the grid's bins: inputs and outputs are this long
   */
  constructor(private readonly halfKernel: Float64Array, readonly gridBins: number) {
    const h = halfKernel.length - 1;
    const n = nextPowerOfTwo(Math.max(4, gridBins + h));
    const m = n / 2;
    this.length = n;
    this.half = m;
    this.re = new Float64Array(m);
    this.im = new Float64Array(m);
    this.specRe = new Float64Array(m + 1);
    this.specIm = new Float64Array(m + 1);
    this.cos = Float64Array.from({ length: m + 1 }, (_, k) => Math.cos((2 * Math.PI * k) / n));
    this.sin = Float64Array.from({ length: m + 1 }, (_, k) => Math.sin((2 * Math.PI * k) / n));
    const bits = Math.log2(m);
    this.reversed = Uint32Array.from({ length: m }, (_, i) => {
      let r = 0;
      for (let b = 0, v = i; b < bits; b++, v >>= 1) r = (r << 1) | (v & 1);
      return r;
    });
    // the kernel laid out circularly: K(d) at d and at L − d, so the circular convolution is the linear one on the grid
    const kernel = new Float64Array(n);
    for (let d = 0; d <= h; d++) {
      kernel[d] = halfKernel[d]!;
      if (d > 0) kernel[n - d] = halfKernel[d]!;
    }
    this.forwardReal(kernel, n);
    this.spectrum = Float64Array.from(this.specRe, (v) => v / m);
  }

  /** K between two grid bins (0 beyond the kernel's reach). */
  between(from: number, to: number): number {
    const d = Math.abs(to - from);
    return d < this.halfKernel.length ? this.halfKernel[d]! : 0;
  }

  /** two complex FFTs of L/2 (about 5 L log2 L flops each) and the spectrum product */
  get applyFlops(): number {
    return 10 * this.length * Math.log2(this.length) + 6 * this.length;
  }

  get streamBytes(): number {
    return 8 * this.length;
  }

  /** the spectrum, the FFT tables and the work arrays: about seven float64 arrays of L */
  get heldBytes(): number {
    return 7 * 8 * this.length;
  }

  /** out[j] = max(0, Σ_i x[i] · K(j − i)) for j in [0, gridBins); x is gridBins long. */
  apply(x: ArrayLike<number>, out: Float64Array): void {
    const { re, im, specRe, specIm, spectrum, gridBins, half: m } = this;
    this.forwardReal(x, gridBins);
    for (let k = 0; k <= m; k++) {
      specRe[k] = specRe[k]! * spectrum[k]!;
      specIm[k] = specIm[k]! * spectrum[k]!;
    }
    this.inverseReal();
    for (let j = 0; j < gridBins; j++) {
      const v = (j & 1) === 0 ? re[j >> 1]! : im[j >> 1]!;
      out[j] = v > 0 ? v : 0;
    }
  }

  /**
   * The spectrum's bins 0 … L/2 of the real x (zero past `count`) into specRe/specIm: x's even and
   * odd samples as one complex sequence of L/2, transformed, then split apart.
   */
  private forwardReal(x: ArrayLike<number>, count: number): void {
    const { re, im, specRe, specIm, cos, sin, half: m } = this;
    for (let k = 0; k < m; k++) {
      re[k] = 2 * k < count ? x[2 * k]! : 0;
      im[k] = 2 * k + 1 < count ? x[2 * k + 1]! : 0;
    }
    this.transform(1);
    for (let k = 0; k <= m; k++) {
      const a = k % m;
      const b = (m - k) % m;
      // E = (Z[k] + conj Z[m−k]) / 2, O = (Z[k] − conj Z[m−k]) / 2i, X = E + e^{−2πik/L} O
      const er = (re[a]! + re[b]!) / 2;
      const ei = (im[a]! - im[b]!) / 2;
      const or = (im[a]! + im[b]!) / 2;
      const oi = -(re[a]! - re[b]!) / 2;
      specRe[k] = er + cos[k]! * or + sin[k]! * oi;
      specIm[k] = ei + cos[k]! * oi - sin[k]! * or;
    }
  }

  /** The real sequence of the Hermitian spectrum in specRe/specIm, times L/2: even samples in re, odd in im. */
  private inverseReal(): void {
    const { re, im, specRe, specIm, cos, sin, half: m } = this;
    for (let k = 0; k < m; k++) {
      // Ye = (Y[k] + conj Y[m−k]) / 2, Yo = (Y[k] − conj Y[m−k]) / 2 · e^{+2πik/L}, Z = Ye + i Yo
      const ar = specRe[k]!;
      const ai = specIm[k]!;
      const br = specRe[m - k]!;
      const bi = -specIm[m - k]!;
      const dr = (ar - br) / 2;
      const di = (ai - bi) / 2;
      re[k] = (ar + br) / 2 - (dr * sin[k]! + di * cos[k]!);
      im[k] = (ai + bi) / 2 + (dr * cos[k]! - di * sin[k]!);
    }
    this.transform(-1);
  }

  /** In-place radix-2 FFT of (re, im), L/2 long: sign 1 forward (e^{−iθ}), −1 inverse without scaling. */
  private transform(sign: 1 | -1): void {
    const { re, im, cos, sin, reversed, half: n } = this;
    for (let i = 0; i < n; i++) {
      const j = reversed[i]!;
      if (j <= i) continue;
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
    for (let size = 2; size <= n; size *= 2) {
      const half = size / 2;
      // e^{−2πik/size} is the L-long table's entry k · (2n / size)
      const step = (2 * n) / size;
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step]!;
        const wi = -sign * sin[k * step]!;
        for (let a = k; a < n; a += size) {
          const b = a + half;
          const xr = re[b]!;
          const xi = im[b]!;
          const tr = wr * xr - wi * xi;
          const ti = wr * xi + wi * xr;
          re[b] = re[a]! - tr;
          im[b] = im[a]! - ti;
          re[a] = re[a]! + tr;
          im[a] = im[a]! + ti;
        }
      }
    }
  }
}
