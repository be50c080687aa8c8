/**
 * A structured transition laid out for posteriorKernels.wat: every block's numbers in one float32
 * image, a random-walk band by diagonals (diagonal k holds A[i, i + dMin + k] at element i, zero
 * where row i has no entry, padded with zeros on both sides so eight lanes may read past a block's
 * edge), a rank-one block as its row. Built once per structure and kept with it.
 */
import type { ConvolutionBlock } from './convolutionBlock';
import type { BandBlock, StructuredTransition } from './structuredTransition';

export interface BandStep {
  kind: 'band';
  rowStart: number;
  rows: number;
  colStart: number;
  cols: number;
  /** image index of element 0 of diagonal 0 */
  diagAt: number;
  /** elements from one diagonal to the next */
  stride: number;
  width: number;
  dMin: number;
}

export interface RankOneStep {
  kind: 'rankOne';
  rowStart: number;
  rows: number;
  colStart: number;
  cols: number;
  /** image index of the block's row */
  valuesAt: number;
  /** which row mass (f @ A) and which dot product (A @ r) the block uses */
  massSlot: number;
  dotSlot: number;
}

/** A random-walk block as a convolution: its own passes (convolutionProduct.ts), between the kernels' steps in block order */
export interface ConvolutionStep {
  kind: 'convolution';
  block: ConvolutionBlock;
}

/** Two row masses summed side by side (the same slot twice when there is one) */
export interface MassPair {
  rowStarts: [number, number];
  rows: number;
  slots: [number, number];
}

/** Up to four dot products with the same stretch of r, side by side */
export interface DotQuad {
  colStart: number;
  cols: number;
  /** image indices of the blocks' rows, the last repeated to make four */
  valuesAt: [number, number, number, number];
  slots: number[];
}

export interface KernelPlan {
  size: number;
  steps: (BandStep | RankOneStep | ConvolutionStep)[];
  massPairs: MassPair[];
  masses: number;
  dotQuads: DotQuad[];
  image: Float32Array;
  /**
   * Elements a band may read or write before and after the state vectors: the kernels' vectors
   * live in memory with this many zeros (or other states' finite values) around them.
   */
  margin: number;
}

/** Lanes the kernels handle together: outputs past a block's end are computed on padded zeros. */
const LANES = 8;
/**
 * A band whose diagonals hold more than this many times its stored entries (rows whose first
 * entry wanders far from the diagonal) is left to the row-by-row loops: the padded zeros would
 * cost more than the vectors save.
 */
const MAX_DIAGONAL_FILL = 4;

const roundUp = (x: number, to: number) => Math.ceil(x / to) * to;

interface Diagonals {
  dMin: number;
  width: number;
}

function diagonalRange(b: BandBlock): Diagonals | null {
  let dMin = Infinity;
  let dMax = -Infinity;
  for (let i = 0; i < b.rows; i++) {
    if (b.length[i]! === 0) continue;
    dMin = Math.min(dMin, b.first[i]! - i);
    dMax = Math.max(dMax, b.first[i]! + b.length[i]! - 1 - i);
  }
  return dMin > dMax ? null : { dMin, width: dMax - dMin + 1 };
}

/** Where a band's lanes reach outside [0, rows) and [0, cols) (see the kernels' loops). */
function bandReach(rows: number, cols: number, { dMin, width }: Diagonals): number {
  const dMax = dMin + width - 1;
  const r4 = roundUp(rows, LANES);
  const c4 = roundUp(cols, LANES);
  return Math.max(LANES, dMax, -dMin, c4 - dMin - rows, r4 + dMax - cols, r4 - rows, c4 - cols);
}

/** Padding before element 0 of each diagonal and the distance between diagonals. */
function diagonalShape(rows: number, cols: number, { dMin, width }: Diagonals): { pad: number; stride: number } {
  const pad = roundUp(Math.max(0, dMin + width - 1) + LANES, LANES);
  const stride = pad + roundUp(Math.max(rows, cols) - Math.min(dMin, 0) + LANES, LANES) + LANES;
  return { pad, stride };
}

function fillDiagonals(b: BandBlock, image: Float32Array, origin: number, stride: number, dMin: number): void {
  for (let i = 0; i < b.rows; i++) {
    const v0 = b.valueStart[i]!;
    for (let t = 0; t < b.length[i]!; t++) {
      const d = b.first[i]! + t - i;
      image[origin + (d - dMin) * stride + i] = b.values[v0 + t]!;
    }
  }
}

/** The plan, or null when a band is too irregular for diagonals (the caller keeps the plain loops). */
export function buildKernelPlan(structure: StructuredTransition): KernelPlan | null {
  const steps: KernelPlan['steps'] = [];
  const fills: (() => void)[] = [];
  let floats = 0;
  let margin = LANES;
  let image = new Float32Array(0);
  for (const b of structure.blocks) {
    const { rowStart, rows, colStart } = b;
    if (b.kind === 'rankOne') {
      const valuesAt = floats;
      steps.push({ kind: 'rankOne', rowStart, rows, colStart, cols: b.values.length, valuesAt, massSlot: -1, dotSlot: -1 });
      floats = roundUp(floats + b.values.length, LANES);
      fills.push(() => image.set(b.values, valuesAt));
      continue;
    }
    if (b.kind === 'convolution') {
      steps.push({ kind: 'convolution', block: b });
      continue;
    }
    const cols = b.first.reduce((m, f, i) => Math.max(m, f + b.length[i]!), 0);
    const range = diagonalRange(b);
    if (!range) continue;
    if (range.width * rows > MAX_DIAGONAL_FILL * b.values.length + LANES * range.width) return null;
    const { pad, stride } = diagonalShape(rows, cols, range);
    const diagAt = floats + pad;
    steps.push({ kind: 'band', rowStart, rows, colStart, cols, diagAt, stride, width: range.width, dMin: range.dMin });
    floats += range.width * stride;
    margin = Math.max(margin, bandReach(rows, cols, range));
    fills.push(() => fillDiagonals(b, image, diagAt, stride, range.dMin));
  }
  image = new Float32Array(floats);
  for (const fill of fills) fill();
  const rankOnes = steps.filter((s): s is RankOneStep => s.kind === 'rankOne');
  const { massPairs, masses } = pairMasses(rankOnes);
  return { size: structure.size, steps, massPairs, masses, dotQuads: quadDots(rankOnes), image, margin: roundUp(margin + LANES, LANES) };
}

/** One mass per distinct block of source rows; blocks of as many rows go in pairs. */
function pairMasses(steps: RankOneStep[]): { massPairs: MassPair[]; masses: number } {
  const slotOf = new Map<string, number>();
  const ranges: { rowStart: number; rows: number; slot: number }[] = [];
  for (const s of steps) {
    const key = `${s.rowStart}:${s.rows}`;
    if (!slotOf.has(key)) {
      slotOf.set(key, ranges.length);
      ranges.push({ rowStart: s.rowStart, rows: s.rows, slot: ranges.length });
    }
    s.massSlot = slotOf.get(key)!;
  }
  const massPairs: MassPair[] = [];
  const waiting = new Map<number, (typeof ranges)[number]>();
  for (const r of ranges) {
    const other = waiting.get(r.rows);
    if (!other) {
      waiting.set(r.rows, r);
      continue;
    }
    waiting.delete(r.rows);
    massPairs.push({ rowStarts: [other.rowStart, r.rowStart], rows: r.rows, slots: [other.slot, r.slot] });
  }
  for (const r of waiting.values()) massPairs.push({ rowStarts: [r.rowStart, r.rowStart], rows: r.rows, slots: [r.slot, r.slot] });
  return { massPairs, masses: ranges.length };
}

/** The blocks that end in the same destination bins, four at a time; every block has its own dot product. */
function quadDots(steps: RankOneStep[]): DotQuad[] {
  const byColumns = new Map<string, RankOneStep[]>();
  for (const s of steps) {
    const key = `${s.colStart}:${s.cols}`;
    byColumns.set(key, [...(byColumns.get(key) ?? []), s]);
  }
  const quads: DotQuad[] = [];
  let slot = 0;
  for (const group of byColumns.values()) {
    for (let q = 0; q < group.length; q += 4) {
      const four = group.slice(q, q + 4);
      for (const s of four) s.dotSlot = slot++;
      const at = four.map((s) => s.valuesAt);
      while (at.length < 4) at.push(at[at.length - 1]!);
      quads.push({ colStart: four[0]!.colStart, cols: four[0]!.cols, valuesAt: at as DotQuad['valuesAt'], slots: four.map((s) => s.dotSlot) });
    }
  }
  return quads;
}

const plans = new WeakMap<StructuredTransition, KernelPlan | null>();

/** The structure's plan, built on first use. */
export function kernelPlanFor(structure: StructuredTransition): KernelPlan | null {
  let plan = plans.get(structure);
  if (plan === undefined) {
    plan = buildKernelPlan(structure);
    plans.set(structure, plan);
  }
  return plan;
}
