/**
 * The filter's conditioning of a row, u = pred ⊙ e^(LL − m) and its sum, on posteriorKernels.wat
 * (conditionRow) where WebAssembly SIMD runs, with the plain loop as its definition. Both use
 * posteriorExp.ts's e^x, so they give the same bits. The kernel has an instance and a memory of its
 * own (the products' memory holds their plan and grows with it): the row of LL and the prediction
 * are copied in, and u is read where the kernel left it.
 */
import { EXP_UNDERFLOW, expOfNonPositive } from './posteriorExp';
import { posteriorKernelInstance, type PosteriorKernelExports } from './posteriorKernels';
import type { StateSpace } from './stateSpaceTypes';
import type { ProductKernels } from './transitionProducts';

const PAGE_BYTES = 65_536;
/** each region holds one float64 more than a row, so a pair that reads past an odd row stays inside it */
const regionBytes = (n: number, bytesPerValue: number) => Math.ceil(((n + 1) * bytesPerValue) / 16) * 16;

export interface RowConditioner {
  /** u (N values, valid until the next call) */
  readonly u: Float64Array;
  /** the largest of ll[base …] (−∞ for none; a NaN is passed over) */
  rowMax(ll: Float32Array, base: number): number;
  /** out[base + k] = float32(u[k] · factor): the conditioned row normalised */
  normalizeInto(out: Float32Array, base: number, factor: number): void;
  /**
   * u[k] = pred[k] · e^(ll[base + k] − max), 0 where ll[base + k] − max < EXP_UNDERFLOW; returns
   * Σ u[k] added in order. `max` is the row's finite maximum, or 0 (then every x is −∞ or ≤ 0).
   */
  condition(ll: Float32Array, base: number, pred: Float32Array, max: number): number;
}

class PlainConditioner implements RowConditioner {
  readonly u: Float64Array;

  constructor(private readonly n: number) {
    this.u = new Float64Array(n);
  }

  rowMax(ll: Float32Array, base: number): number {
    let rowMax = -Infinity;
    for (let k = 0; k < this.n; k++) if (ll[base + k]! > rowMax) rowMax = ll[base + k]!;
    return rowMax;
  }

  normalizeInto(out: Float32Array, base: number, factor: number): void {
    const { n, u } = this;
    for (let k = 0; k < n; k++) out[base + k] = u[k]! * factor;
  }

  condition(ll: Float32Array, base: number, pred: Float32Array, max: number): number {
    const { n, u } = this;
    let mass = 0;
    for (let k = 0; k < n; k++) {
      const d = ll[base + k]! - max;
      // below the threshold e^d is exactly 0 in float64: the same u without evaluating it
      const v = pred[k]! * (d < EXP_UNDERFLOW ? 0 : expOfNonPositive(d));
      u[k] = v;
      mass += v;
    }
    return mass;
  }
}

/**
 * A part of a row whose log likelihood may have the bits of an earlier part: the detector's
 * non-local states (continuous and fragmented) read one likelihood (logLikelihood.ts), so where
 * a row's parts are the same, their e^(ll − max) are computed once. Checked on every row: a
 * caller may give any likelihood.
 */
export interface RepeatedPart {
  /** the part's first bin */
  start: number;
  /** the first bin of the earlier part it may repeat (from + length ≤ start) */
  from: number;
  length: number;
}

class KernelConditioner implements RowConditioner {
  private readonly ll: Float32Array;
  private readonly pred: Float32Array;
  readonly u: Float64Array;
  private readonly normalized: Float32Array;
  private readonly predAt: number;
  private readonly uAt: number;
  private readonly normalizedAt: number;
  private readonly eAt: number;
  /** the row of LL rowMax just copied in, which condition then reads there */
  private heldRow: { ll: Float32Array | null; base: number } = { ll: null, base: -1 };

  constructor(private readonly kernels: PosteriorKernelExports, private readonly n: number, private readonly repeats: readonly RepeatedPart[]) {
    this.predAt = regionBytes(n, 4);
    this.uAt = 2 * this.predAt;
    this.normalizedAt = this.uAt + regionBytes(n, 8);
    this.eAt = this.normalizedAt + regionBytes(n, 4);
    const total = this.eAt + regionBytes(n, 8);
    const memory = kernels.memory;
    if (memory.buffer.byteLength < total) memory.grow(Math.ceil((total - memory.buffer.byteLength) / PAGE_BYTES));
    this.ll = new Float32Array(memory.buffer, 0, n);
    this.pred = new Float32Array(memory.buffer, this.predAt, n);
    this.u = new Float64Array(memory.buffer, this.uAt, n);
    this.normalized = new Float32Array(memory.buffer, this.normalizedAt, n);
  }

  /** Copies the row in (one copy; subarray makes a view, not a copy). */
  private copyRow(ll: Float32Array, base: number): void {
    this.ll.set(ll.subarray(base, base + this.n));
    this.heldRow = { ll, base };
  }

  /** The row's maximum; the row stays in memory for the condition of the same row that follows. */
  rowMax(ll: Float32Array, base: number): number {
    this.copyRow(ll, base);
    return this.kernels.maxF32(0, this.n);
  }

  normalizeInto(out: Float32Array, base: number, factor: number): void {
    this.kernels.scaleToF32(this.normalizedAt, this.uAt, this.n, factor);
    out.set(this.normalized, base);
  }

  condition(ll: Float32Array, base: number, pred: Float32Array, max: number): number {
    const { n } = this;
    if (this.heldRow.ll !== ll || this.heldRow.base !== base) this.copyRow(ll, base);
    // the caller may write into ll before its next row: that one is copied afresh
    this.heldRow = { ll: null, base: -1 };
    this.pred.set(pred);
    const { kernels: k, predAt, uAt, eAt } = this;
    // the parts in row order, each computed or repeated, as one chain of sums over the row
    let mass = 0;
    let at = 0;
    for (const part of this.repeats) {
      if (!k.sameBytes(4 * part.from, 4 * part.start, 4 * part.length)) continue;
      mass = k.conditionRow(4 * at, predAt + 4 * at, part.start - at, max, uAt + 8 * at, eAt + 8 * at, mass);
      mass = k.reuseRow(eAt + 8 * part.from, predAt + 4 * part.start, part.length, uAt + 8 * part.start, mass);
      at = part.start + part.length;
    }
    return k.conditionRow(4 * at, predAt + 4 * at, n - at, max, uAt + 8 * at, eAt + 8 * at, mass);
  }
}

/**
 * A conditioner for rows of `n` bins: the kernel where WebAssembly SIMD runs ('auto'), else (or
 * with 'plain') the loop. Each has its own memory, so filters never share one. `repeats` (in row
 * order, each repeating a part that is not itself a repeat) only saves work: the plain loop, which
 * defines the result, computes every bin.
 */
export function rowConditioner(n: number, kernels: ProductKernels = 'auto', repeats: readonly RepeatedPart[] = []): RowConditioner {
  const exports = kernels === 'auto' ? posteriorKernelInstance() : null;
  return exports ? new KernelConditioner(exports, n, repeats) : new PlainConditioner(n);
}

/** The spatial states after the first, each a possible repeat of its likelihood's columns. */
export function repeatedLikelihoodParts(space: StateSpace): RepeatedPart[] {
  const spatial = space.stateKinds.flatMap((kind, s) => (kind === 'spatial' ? [space.stateStart[s]!] : []));
  return spatial.slice(1).map((start) => ({ start, from: spatial[0]!, length: space.nInteriorBins }));
}
