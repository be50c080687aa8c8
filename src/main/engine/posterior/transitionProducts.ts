/**
 * The two products the filter and smoother need, p = f @ A (rows of A are "from") and A @ r,
 * for the dense float32 matrix and for its structure. Sums are float64; nothing is allocated per
 * call. The loops here define the structured products; where WebAssembly SIMD runs, the same sums
 * run in posteriorKernels.wat (kernelProduct.ts), bit for bit.
 */
import { kernelPlanFor } from './kernelPlan';
import { KernelProduct } from './kernelProduct';
import { KernelWorkspace, kernelWorkspace } from './posteriorKernels';
import { ConvolutionScratch, convolutionBackward, convolutionForward } from './convolutionProduct';
import type { BandBlock, RankOneBlock, StructuredTransition } from './structuredTransition';
import type { StateSpace } from './stateSpaceTypes';

/** the posterior's method (shared/config's PosteriorMethod; this folder imports nothing outside it) */
export type TransitionMethod = 'dense' | 'structured';
/** 'auto': the SIMD kernels where they run; 'plain': these loops (the definition, and the fallback) */
export type ProductKernels = 'auto' | 'plain';

export interface TransitionProduct {
  /** out = f @ A, f read from f[offset .. offset + N) (a row of a window, without a view per row) */
  forward(f: Float32Array, offset: number, out: Float64Array): void;
  /** out = A @ r */
  backward(r: Float64Array, out: Float64Array): void;
}

/**
 * f @ A as rows of A scaled by f_i and added up, and A @ r as dot products of rows: A is read in
 * memory order. Four rows go together, so each pass over `out` (or `r`) serves four rows of A,
 * which is what bounds these loops once A leaves the cache.
 */
class DenseProduct implements TransitionProduct {
  constructor(private readonly a: Float32Array, private readonly n: number) {}

  forward(f: Float32Array, offset: number, out: Float64Array): void {
    const { a, n } = this;
    out.fill(0);
    let i = 0;
    for (; i + 3 < n; i += 4) {
      const f0 = f[offset + i]!;
      const f1 = f[offset + i + 1]!;
      const f2 = f[offset + i + 2]!;
      const f3 = f[offset + i + 3]!;
      if (f0 === 0 && f1 === 0 && f2 === 0 && f3 === 0) continue;
      const b0 = i * n;
      const b1 = b0 + n;
      const b2 = b1 + n;
      const b3 = b2 + n;
      for (let j = 0; j < n; j++) out[j]! += f0 * a[b0 + j]! + f1 * a[b1 + j]! + f2 * a[b2 + j]! + f3 * a[b3 + j]!;
    }
    for (; i < n; i++) {
      const fi = f[offset + i]!;
      const base = i * n;
      for (let j = 0; j < n; j++) out[j]! += fi * a[base + j]!;
    }
  }

  backward(r: Float64Array, out: Float64Array): void {
    const { a, n } = this;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      const b0 = i * n;
      const b1 = b0 + n;
      const b2 = b1 + n;
      const b3 = b2 + n;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < n; j++) {
        const x = r[j]!;
        s0 += a[b0 + j]! * x;
        s1 += a[b1 + j]! * x;
        s2 += a[b2 + j]! * x;
        s3 += a[b3 + j]! * x;
      }
      out[i] = s0;
      out[i + 1] = s1;
      out[i + 2] = s2;
      out[i + 3] = s3;
    }
    for (; i < n; i++) {
      const base = i * n;
      let sum = 0;
      for (let j = 0; j < n; j++) sum += a[base + j]! * r[j]!;
      out[i] = sum;
    }
  }
}

function bandForward(b: BandBlock, f: Float32Array, offset: number, out: Float64Array): void {
  const { values, valueStart, length, first } = b;
  const rowBase = offset + b.rowStart;
  for (let i = 0; i < b.rows; i++) {
    const fi = f[rowBase + i]!;
    if (fi === 0) continue;
    const v0 = valueStart[i]!;
    const col0 = b.colStart + first[i]! - v0;
    const end = v0 + length[i]!;
    for (let v = v0; v < end; v++) out[col0 + v]! += fi * values[v]!;
  }
}

function bandBackward(b: BandBlock, r: Float64Array, out: Float64Array): void {
  const { values, valueStart, length, first } = b;
  for (let i = 0; i < b.rows; i++) {
    const v0 = valueStart[i]!;
    const col0 = b.colStart + first[i]! - v0;
    const end = v0 + length[i]!;
    let sum = 0;
    for (let v = v0; v < end; v++) sum += values[v]! * r[col0 + v]!;
    out[b.rowStart + i]! += sum;
  }
}

/** Σ_i f_i · row = (Σ_i f_i) · row. */
function rankOneForward(b: RankOneBlock, f: Float32Array, offset: number, out: Float64Array): void {
  let mass = 0;
  for (let i = offset + b.rowStart; i < offset + b.rowStart + b.rows; i++) mass += f[i]!;
  if (mass === 0) return;
  for (let j = 0; j < b.values.length; j++) out[b.colStart + j]! += mass * b.values[j]!;
}

/** Every row gives the same dot product. */
function rankOneBackward(b: RankOneBlock, r: Float64Array, out: Float64Array): void {
  let dot = 0;
  for (let j = 0; j < b.values.length; j++) dot += b.values[j]! * r[b.colStart + j]!;
  for (let i = b.rowStart; i < b.rowStart + b.rows; i++) out[i]! += dot;
}

class StructuredProduct implements TransitionProduct {
  private readonly scratch = new ConvolutionScratch();

  constructor(private readonly structure: StructuredTransition) {}

  forward(f: Float32Array, offset: number, out: Float64Array): void {
    out.fill(0);
    for (const b of this.structure.blocks) {
      if (b.kind === 'band') bandForward(b, f, offset, out);
      else if (b.kind === 'convolution') convolutionForward(b, f, offset, this.scratch, out);
      else rankOneForward(b, f, offset, out);
    }
  }

  backward(r: Float64Array, out: Float64Array): void {
    out.fill(0);
    for (const b of this.structure.blocks) {
      if (b.kind === 'band') bandBackward(b, r, out);
      else if (b.kind === 'convolution') convolutionBackward(b, r, this.scratch, out);
      else rankOneBackward(b, r, out);
    }
  }
}

function structuredProduct(structure: StructuredTransition, kernels: ProductKernels): TransitionProduct {
  // the SIMD kernels run bands and rank-one blocks, and a convolution block its own passes, between them in block order
  const workspace = kernels === 'auto' ? kernelWorkspace() : null;
  const plan = workspace ? kernelPlanFor(structure) : null;
  return workspace && plan && KernelWorkspace.fits(plan) ? new KernelProduct(plan, workspace) : new StructuredProduct(structure);
}

export function transitionProduct(space: StateSpace, method: TransitionMethod, kernels: ProductKernels = 'auto'): TransitionProduct {
  if (method === 'dense') return new DenseProduct(space.transitions.dense, space.nInteriorStateBins);
  if (method === 'structured') return structuredProduct(space.transitions.structured, kernels);
  throw new RangeError(`unknown transition method ${String(method)}`);
}
