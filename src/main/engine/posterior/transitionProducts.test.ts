import { describe, expect, it, vi } from 'vitest';
import { buildKernelPlan, kernelPlanFor } from './kernelPlan';
import { KernelProduct } from './kernelProduct';
import { kernelWorkspace } from './posteriorKernels';
import { buildStateSpace } from './stateSpace';
import type { StateSpace } from './stateSpaceTypes';
import type { BandBlock, RankOneBlock, StructuredTransition } from './structuredTransition';
import { CASES, spaceOf } from './testing';
import { transitionProduct, type TransitionProduct } from './transitionProducts';

/** a small deterministic generator, so a failure repeats */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rows of a band around the diagonal (shifted by `shift`), clipped at the block's edges, some rows empty. */
function band(rowStart: number, rows: number, colStart: number, cols: number, halfWidth: number, shift: number, rand: () => number): BandBlock {
  const first = new Int32Array(rows);
  const length = new Int32Array(rows);
  const valueStart = new Int32Array(rows);
  const values: number[] = [];
  for (let i = 0; i < rows; i++) {
    const lo = Math.max(0, i + shift - halfWidth + Math.floor(rand() * 2));
    const hi = Math.min(cols - 1, i + shift + halfWidth - Math.floor(rand() * 2));
    valueStart[i] = values.length;
    if (hi < lo || rand() < 0.05) continue;
    first[i] = lo;
    length[i] = hi - lo + 1;
    // a stored zero inside a row now and then, as the float32 band keeps them
    for (let c = lo; c <= hi; c++) values.push(rand() < 0.1 ? 0 : rand());
  }
  return { kind: 'band', rowStart, rows, colStart, first, length, valueStart, values: Float32Array.from(values) };
}

function rankOne(rowStart: number, rows: number, colStart: number, cols: number, rand: () => number): RankOneBlock {
  return { kind: 'rankOne', rowStart, rows, colStart, values: Float32Array.from({ length: cols }, () => rand()) };
}

/** States of 1, 1, 37 and 38 bins (N = 77, no multiple of the lanes): bands within and across the spatial states. */
function mixedStructure(seed: number): StructuredTransition {
  const rand = random(seed);
  const [a, b] = [2, 39];
  return {
    size: 77,
    blocks: [
      rankOne(0, 1, 0, 1, rand), rankOne(0, 1, a, 37, rand), rankOne(1, 1, b, 38, rand),
      rankOne(a, 37, 0, 1, rand), band(a, 37, a, 37, 5, 0, rand), band(a, 37, b, 38, 3, 1, rand),
      band(b, 38, a, 37, 4, -2, rand), rankOne(b, 38, b, 38, rand), band(b, 38, b, 38, 17, 0, rand),
    ],
  };
}

function sameBits(actual: Float64Array, expected: Float64Array, what: string): void {
  let mismatches = 0;
  let first = -1;
  for (let i = 0; i < expected.length; i++) {
    if (Object.is(actual[i], expected[i])) continue;
    mismatches++;
    if (first < 0) first = i;
  }
  expect(mismatches, `${what}: first at ${first}, ${actual[first]} vs ${expected[first]}`).toBe(0);
}

/** A vector that is zero but for a few entries: the kernels pass over whole groups of zeros. */
function sparse(n: number, rand: () => number): number[] {
  const out = new Array<number>(n).fill(0);
  const at = Math.floor(rand() * n);
  for (let k = Math.max(0, at - 3); k < Math.min(n, at + 3); k++) out[k] = rand();
  out[n - 1] = rand();
  return out;
}

/** Both products on random vectors, a zero row, a sparse row and rows read at an offset. */
function expectSameProducts(kernel: TransitionProduct, plain: TransitionProduct, n: number, seed: number): void {
  const rand = random(seed);
  const rows = 4;
  const f = Float32Array.from({ length: rows * n }, (_, k) => (k < n ? 0 : rand() < 0.3 ? 0 : rand()));
  f.set(sparse(n, rand), 3 * n);
  const [a, b] = [new Float64Array(n).fill(NaN), new Float64Array(n).fill(NaN)];
  for (let t = 0; t < rows; t++) {
    kernel.forward(f, t * n, a);
    plain.forward(f, t * n, b);
    sameBits(a, b, `f @ A, row ${t}`);
  }
  const dense = Float64Array.from({ length: n }, () => (rand() < 0.2 ? 0 : rand() * 10));
  for (const [what, r] of [['dense', dense], ['sparse', Float64Array.from(sparse(n, rand))], ['zero', new Float64Array(n)]] as const) {
    kernel.backward(r, a);
    plain.backward(r, b);
    sameBits(a, b, `A @ r, ${what} r`);
  }
}

function spaceWith(structured: StructuredTransition): StateSpace {
  return { nInteriorStateBins: structured.size, transitions: { structured } } as unknown as StateSpace;
}

const simd = kernelWorkspace() !== null;

describe('structured products on the SIMD kernels', () => {
  it('run here (Node has WebAssembly SIMD)', () => {
    expect(simd).toBe(true);
  });

  it.each([1, 2, 3, 4])('give the plain loops\' bits on mixed bands and rank-one blocks (seed %i)', (seed) => {
    const space = spaceWith(mixedStructure(seed));
    const kernel = transitionProduct(space, 'structured');
    expect(kernel).toBeInstanceOf(KernelProduct);
    expectSameProducts(kernel, transitionProduct(space, 'structured', 'plain'), 77, seed);
  });

  it.each(CASES)('%s: give the plain loops\' bits on the reference state space (gaps at the grid edges included)', async (name) => {
    const space = await spaceOf(name);
    expectSameProducts(transitionProduct(space, 'structured'), transitionProduct(space, 'structured', 'plain'), space.nInteriorStateBins, 7);
  });

  it.each([[3, 'decoder'], [5, 'detector'], [41, 'detector'], [250, 'decoder']] as const)('P = %i %s: the same bits, narrow grids included', (p, model) => {
    const centers = Float64Array.from({ length: p }, (_, j) => 0.5 + j);
    const space = buildStateSpace(model, { centers, interior: new Uint8Array(p).fill(1) });
    expectSameProducts(transitionProduct(space, 'structured'), transitionProduct(space, 'structured', 'plain'), space.nInteriorStateBins, p);
  });

  it.each(['decoder', 'detector'] as const)('a 2-D open field with a hole, %s: its convolution between the kernels\' blocks, the same bits', (model) => {
    const [nx, ny] = [9, 7];
    const centers = new Float64Array(nx * ny * 2);
    const interior = new Uint8Array(nx * ny).fill(1);
    for (let b = 0; b < nx * ny; b++) {
      centers[2 * b] = 2 * Math.floor(b / ny);
      centers[2 * b + 1] = 2 * (b % ny);
    }
    for (const b of [3 * ny + 3, 3 * ny + 4, 4 * ny + 3]) interior[b] = 0;
    const space = buildStateSpace(model, { centers, interior, shape: [nx, ny] });
    expect(space.transitions.structured.blocks.some((b) => b.kind === 'convolution')).toBe(true);
    const kernel = transitionProduct(space, 'structured');
    expect(kernel).toBeInstanceOf(KernelProduct);
    expectSameProducts(kernel, transitionProduct(space, 'structured', 'plain'), space.nInteriorStateBins, 5);
  });

  it('take turns between two structures in the one memory', () => {
    const [s1, s2] = [spaceWith(mixedStructure(11)), spaceWith(mixedStructure(12))];
    const [k1, k2] = [transitionProduct(s1, 'structured'), transitionProduct(s2, 'structured')];
    const [p1, p2] = [transitionProduct(s1, 'structured', 'plain'), transitionProduct(s2, 'structured', 'plain')];
    for (let i = 0; i < 3; i++) {
      expectSameProducts(k1, p1, 77, 20 + i);
      expectSameProducts(k2, p2, 77, 30 + i);
    }
  });

  it('leave a band whose rows wander off the diagonal to the plain loops', () => {
    const rand = random(5);
    const wandering = band(0, 40, 0, 40, 1, 0, rand);
    // row 0 reaches the far corner: one diagonal per column, mostly padding
    wandering.first[0] = 39;
    wandering.length[0] = 1;
    const structure: StructuredTransition = { size: 40, blocks: [wandering] };
    expect(buildKernelPlan(structure)).toBeNull();
    const space = spaceWith(structure);
    expect(transitionProduct(space, 'structured')).not.toBeInstanceOf(KernelProduct);
    expect(kernelPlanFor(mixedStructure(1))).not.toBeNull();
  });

  it('keep the plain loops where WebAssembly SIMD is missing', async () => {
    vi.resetModules();
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    try {
      const fresh = await import('./transitionProducts');
      expect((await import('./posteriorKernels')).kernelWorkspace()).toBeNull();
      const space = spaceWith(mixedStructure(3));
      const product = fresh.transitionProduct(space, 'structured');
      expect(product).not.toBeInstanceOf((await import('./kernelProduct')).KernelProduct);
      expectSameProducts(product, transitionProduct(space, 'structured'), 77, 3);
    } finally {
      validate.mockRestore();
      vi.resetModules();
    }
  });

  it('lay a band out by diagonals, zeros where a row has no entry', () => {
    const rand = random(9);
    const b = band(0, 9, 0, 9, 2, 0, rand);
    const plan = buildKernelPlan({ size: 9, blocks: [b] })!;
    const step = plan.steps[0]!;
    expect(step.kind).toBe('band');
    if (step.kind !== 'band') return;
    for (let i = 0; i < 9; i++) {
      for (let k = 0; k < step.width; k++) {
        const c = i + step.dMin + k;
        const t = c - b.first[i]!;
        const expected = t >= 0 && t < b.length[i]! ? b.values[b.valueStart[i]! + t]! : 0;
        expect(plan.image[step.diagAt + k * step.stride + i], `row ${i} column ${c}`).toBe(expected);
      }
    }
  });
});
