/**
 * The separable convolution's SIMD passes (posteriorKernels.wat, symmetricStencil) against its
 * plain loops, which are the definition: the same bits on grids whose reach covers the whole axis,
 * odd and even sizes, one-bin axes, a point mass at a corner and values spanning many magnitudes.
 */
import { describe, expect, it } from 'vitest';
import { SeparableConvolution } from './separableConvolution';

function halfKernel(h: number, width: number): Float64Array {
  return Float64Array.from({ length: h + 1 }, (_, d) => Math.exp(-0.5 * (d / width) ** 2) / (width * Math.sqrt(2 * Math.PI)));
}

const SHAPES: [number, number, number, number][] = [
  // nx, ny, hx, hy
  [57, 60, 24, 24],
  [7, 5, 6, 4],
  [1, 9, 0, 8],
  [9, 1, 8, 0],
  [13, 11, 3, 2],
  [2, 2, 1, 1],
];

describe('the separable convolution', () => {
  for (const [nx, ny, hx, hy] of SHAPES) {
    it(`${nx} × ${ny} bins, reach ${hx} × ${hy}: the SIMD passes give the plain loops' bits`, () => {
      const kernels: [Float64Array, Float64Array] = [halfKernel(hx, 1.3), halfKernel(hy, 2.1)];
      const simd = new SeparableConvolution(kernels, [nx, ny]);
      const plain = new SeparableConvolution(kernels, [nx, ny], { simd: false });
      const inputs = [
        Float64Array.from({ length: nx * ny }, (_, i) => Math.abs(Math.sin(i * 12.9898)) * 10 ** ((i % 7) - 3)),
        Float64Array.from({ length: nx * ny }, (_, i) => (i === nx * ny - 1 ? 1 : 0)),
      ];
      for (const x of inputs) {
        const [a, b] = [new Float64Array(nx * ny), new Float64Array(nx * ny)];
        simd.apply(x, a);
        plain.apply(x, b);
        expect([...a]).toEqual([...b]);
      }
      // a second call on the same instance: the pads are still zero
      const [a, b] = [new Float64Array(nx * ny), new Float64Array(nx * ny)];
      simd.apply(inputs[0]!, a);
      plain.apply(inputs[0]!, b);
      expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    });
  }
});
