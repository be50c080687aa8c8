import { describe, expect, it } from 'vitest';
import { GridConvolution } from './gridConvolution';

/** Σ_i x[i] K(j − i), the definition, term by term */
function direct(x: Float64Array, half: Float64Array): Float64Array {
  const h = half.length - 1;
  const out = new Float64Array(x.length);
  for (let j = 0; j < x.length; j++) {
    for (let i = Math.max(0, j - h); i <= Math.min(x.length - 1, j + h); i++) out[j]! += x[i]! * half[Math.abs(j - i)]!;
  }
  return out;
}

function gaussianHalf(h: number, sigmaBins: number): Float64Array {
  return Float64Array.from({ length: h + 1 }, (_, d) => Math.exp(-0.5 * (d / sigmaBins) ** 2));
}

describe('GridConvolution', () => {
  it('is the linear convolution on the grid, with nothing wrapped around its ends', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const [bins, h] of [[1, 0], [5, 9], [300, 40], [1000, 600]] as const) {
      const half = gaussianHalf(h, Math.max(1, h / 4));
      const x = Float64Array.from({ length: bins }, random);
      const conv = new GridConvolution(half, bins);
      expect(conv.length).toBeGreaterThanOrEqual(bins + h);
      const out = new Float64Array(bins);
      conv.apply(x, out);
      const want = direct(x, half);
      const scale = Math.max(...want);
      for (let j = 0; j < bins; j++) expect(Math.abs(out[j]! - want[j]!)).toBeLessThan(1e-12 * scale);
    }
  });

  it('gives no negative value where the true one is far below its rounding', () => {
    const bins = 2000;
    const x = new Float64Array(bins);
    x[10] = 1; // a posterior on one bin: 1900 bins away, the kernel is exp(−0.5·(1900/100)²) ≈ 1e-79
    const conv = new GridConvolution(gaussianHalf(1999, 100), bins);
    const out = new Float64Array(bins);
    conv.apply(x, out);
    expect(out[10]).toBeCloseTo(1, 12);
    expect(Math.min(...out)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...out.subarray(1900))).toBeLessThan(1e-13);
  });
});
