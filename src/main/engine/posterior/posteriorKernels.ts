/**
 * posteriorKernels.wat on this thread: one instance with its own memory, compiled and
 * instantiated synchronously on first use, and the one structure whose plan sits in that memory
 * now with the vectors the products read and write. The filter and the smoother of a decode share
 * the structure, so it is copied in once; another structure takes its place when a product of it
 * runs (a copy, not a rebuild: the plan stays with its structure).
 */
import type { KernelPlan } from './kernelPlan';
import { POSTERIOR_KERNELS_WASM_BASE64 } from './posteriorKernelsBinary';

/** Byte offsets into the module's memory, counts and scalars. */
export interface PosteriorKernelExports {
  memory: WebAssembly.Memory;
  bandForward(acc: number, f: number, diag: number, strideBytes: number, width: number, dMin: number, count: number): void;
  bandBackward(out: number, r: number, diag: number, strideBytes: number, width: number, dMin: number, count: number): void;
  sumPairF32(x: number, y: number, n: number, dst: number): void;
  dotQuadF32F64(r: number, n: number, v0: number, v1: number, v2: number, v3: number, dst: number): void;
  addScaled(acc: number, values: number, n: number, scale: number): void;
  addConstant(out: number, n: number, c: number): void;
  conditionRow(ll: number, pred: number, n: number, max: number, u: number, e: number, mass0: number): number;
  reuseRow(e: number, pred: number, n: number, u: number, mass0: number): number;
  sameBytes(a: number, b: number, bytes: number): number;
  symmetricStencil(out: number, x: number, n: number, k: number, h: number, strideBytes: number): void;
  maxF32(x: number, n: number): number;
  scaleToF32(dst: number, src: number, n: number, factor: number): void;
}

const PAGE_BYTES = 65_536;
const ALIGN = 16;
const RESULTS_BYTES = 32;
const alignUp = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

/** a structure whose layout is larger than this keeps the plain loops (a 32-bit module addresses at most 4 GiB) */
const MAX_MEMORY_BYTES = 2 ** 31;

function layoutBytes({ size: n, margin, image }: KernelPlan): { fBytes: number; vectorBytes: number; total: number } {
  const fBytes = alignUp((2 * margin + n) * 4);
  const vectorBytes = alignUp((2 * margin + n) * 8);
  return { fBytes, vectorBytes, total: fBytes + 2 * vectorBytes + RESULTS_BYTES + image.byteLength };
}

/**
 * The memory's layout for one plan: the source vector f (float32), the vector r (float64) and the
 * accumulator (float64), each with the plan's margin of elements around it, four float64 results
 * (masses, dot products), then the image.
 * Views are exactly N long, so a copy in or out is one set() with nothing allocated.
 */
export class KernelWorkspace {
  /** byte offsets of element 0 of f, r and the accumulator, of four float64 results, and of the image */
  fAt = 0;
  rAt = 0;
  accAt = 0;
  resultsAt = 0;
  imageAt = 0;
  f = new Float32Array(0);
  r = new Float64Array(0);
  acc = new Float64Array(0);
  results = new Float64Array(0);
  private resident: KernelPlan | null = null;

  constructor(readonly kernels: PosteriorKernelExports) {}

  /** Whether the plan's layout fits the module's memory (a 32-bit address space). */
  static fits(plan: KernelPlan): boolean {
    return layoutBytes(plan).total <= MAX_MEMORY_BYTES;
  }

  /** Puts the plan's numbers in memory unless they are there already. */
  hold(plan: KernelPlan): void {
    if (plan === this.resident) return;
    const { size: n, margin } = plan;
    const { fBytes, vectorBytes, total } = layoutBytes(plan);
    const memory = this.kernels.memory;
    if (memory.buffer.byteLength < total) memory.grow(Math.ceil((total - memory.buffer.byteLength) / PAGE_BYTES));
    // the margins must read as zeros, whatever the last plan left there
    new Uint8Array(memory.buffer, 0, total).fill(0);
    this.fAt = margin * 4;
    this.rAt = fBytes + margin * 8;
    this.accAt = fBytes + vectorBytes + margin * 8;
    this.resultsAt = fBytes + 2 * vectorBytes;
    this.imageAt = this.resultsAt + RESULTS_BYTES;
    this.f = new Float32Array(memory.buffer, this.fAt, n);
    this.r = new Float64Array(memory.buffer, this.rAt, n);
    this.acc = new Float64Array(memory.buffer, this.accAt, n);
    this.results = new Float64Array(memory.buffer, this.resultsAt, 4);
    new Float32Array(memory.buffer, this.imageAt, plan.image.length).set(plan.image);
    this.resident = plan;
  }
}

let compiled: WebAssembly.Module | null | undefined;
let workspace: KernelWorkspace | null | undefined;

/** The module, compiled once per thread; null where WebAssembly SIMD is not available. */
function posteriorModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  const bytes = Uint8Array.from(atob(POSTERIOR_KERNELS_WASM_BASE64), (c) => c.charCodeAt(0));
  // an engine without WebAssembly SIMD rejects the module; the products then keep their plain loops
  compiled = typeof WebAssembly === 'undefined' || !WebAssembly.validate(bytes) ? null : new WebAssembly.Module(bytes);
  return compiled;
}

/** A new instance of the module, with a memory of its own; null where WebAssembly SIMD is not available. */
export function posteriorKernelInstance(): PosteriorKernelExports | null {
  const module = posteriorModule();
  return module ? (new WebAssembly.Instance(module).exports as unknown as PosteriorKernelExports) : null;
}

/** The thread's workspace for the products, or null where WebAssembly SIMD is not available. */
export function kernelWorkspace(): KernelWorkspace | null {
  if (workspace === undefined) {
    const exports = posteriorKernelInstance();
    workspace = exports ? new KernelWorkspace(exports) : null;
  }
  return workspace;
}
