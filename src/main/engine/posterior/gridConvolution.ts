/**
 * Convolution of a vector over a uniform 1-D grid with a fixed symmetric kernel, through the FFT:
 * out[j] = Σ_i x[i] · K(j − i) in O(L log L) for an FFT length L ≥ grid + half-width, instead of
 * O(grid · kernel width). On a fine grid the random walk's kernel spans hundreds of bins (a
 * movement σ of 2.45 cm is ±570 bins of 0.1 cm within its negligible reach), where a band product
 * costs more than two FFTs.
 *
 * In float64; the FFT's rounding is about 1e-16 of the largest output, so an output whose true
 * value is far below that (a tail of the Gaussian) comes out as rounding noise: negative noise is
 * set to 0, as a probability cannot be negative.
 */

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

export class GridConvolution {
  /** the FFT length */
  readonly length: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;
  /** the kernel's spectrum (real: the kernel is symmetric), divided by L for the inverse transform */
  private readonly spectrum: Float64Array;

  /**
   * @param halfKernel K(0), K(1) … K(h): the kernel at 0 … h bins (K(−d) = K(d), zero beyond h)
   * @param gridBins the grid's bins: inputs and outputs are this long
   */
  constructor(halfKernel: Float64Array, readonly gridBins: number) {
    const h = halfKernel.length - 1;
    const n = nextPowerOfTwo(Math.max(2, gridBins + h));
    this.length = n;
    this.re = new Float64Array(n);
    this.im = new Float64Array(n);
    this.cos = Float64Array.from({ length: n / 2 }, (_, k) => Math.cos((2 * Math.PI * k) / n));
    this.sin = Float64Array.from({ length: n / 2 }, (_, k) => Math.sin((2 * Math.PI * k) / n));
    const bits = Math.log2(n);
    this.reversed = Uint32Array.from({ length: n }, (_, i) => {
      let r = 0;
      for (let b = 0, v = i; b < bits; b++, v >>= 1) r = (r << 1) | (v & 1);
      return r;
    });
    // the kernel laid out circularly: K(d) at d and at L − d, so the circular convolution is the linear one on the grid
    for (let d = 0; d <= h; d++) {
      this.re[d] = halfKernel[d]!;
      if (d > 0) this.re[n - d] = halfKernel[d]!;
    }
    this.transform(1);
    this.spectrum = Float64Array.from(this.re, (v) => v / n);
  }

  /** out[j] = max(0, Σ_i x[i] · K(j − i)) for j in [0, gridBins); x is gridBins long. */
  apply(x: ArrayLike<number>, out: Float64Array): void {
    const { re, im, spectrum, gridBins, length } = this;
    for (let i = 0; i < gridBins; i++) re[i] = x[i]!;
    re.fill(0, gridBins, length);
    im.fill(0);
    this.transform(1);
    for (let k = 0; k < length; k++) {
      re[k] = re[k]! * spectrum[k]!;
      im[k] = im[k]! * spectrum[k]!;
    }
    this.transform(-1);
    for (let j = 0; j < gridBins; j++) {
      const v = re[j]!;
      out[j] = v > 0 ? v : 0;
    }
  }

  /** In-place radix-2 FFT of (re, im): sign 1 forward (e^{−iθ}), −1 inverse without the 1/L. */
  private transform(sign: 1 | -1): void {
    const { re, im, cos, sin, reversed, length: n } = this;
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
      const step = n / size;
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
