/**
 * The float64 likelihood of a predict and the sum of spike terms into it: LL[t, p] = −Λ(p) in every
 * row, then each block of an electrode's float32 terms added to the rows of its spikes, a term on
 * the float32 floor replaced by the exact float64 LOG_EPS. Every path that builds a likelihood (one
 * thread, or terms arriving from pool workers) adds through here in electrode, block and spike
 * order, so the sum is bitwise the same however the electrodes were computed.
 *
 * addTermsToRows is the definition. LikelihoodSum keeps the likelihood in the memory of a small
 * WebAssembly module (simd/likelihoodSum.wat) that adds with the same float64 operations two lanes
 * at a time: the sum runs on the engine's main thread for every term, where the pool's workers
 * need the cores.
 */
import { LOG_EPS } from '../model';
import { LIKELIHOOD_SUM_WASM_BASE64 } from '../simd';

/** the floor as the device holds it: a term at or below it is on the floor */
export const LOG_EPS_F32 = Math.fround(LOG_EPS);
/** exact (Sterbenz): float32(LOG_EPS) + FLOOR_CORRECTION is LOG_EPS in float64 */
const FLOOR_CORRECTION = LOG_EPS - LOG_EPS_F32;
/** what a term off the floor adds to itself: 0·FLOOR_CORRECTION, a signed zero */
const NO_CORRECTION = 0 * FLOOR_CORRECTION;

/** μ = 0 and J ≡ 0: every decoding spike adds exactly LOG_EPS to every bin of its row (spec §4.5). */
export function addFloorTerms(ll: Float64Array, rows: Int32Array, nBins: number): void {
  for (const row of rows) for (let p = 0; p < nBins; p++) ll[row * nBins + p] = ll[row * nBins + p]! + LOG_EPS;
}

/**
 * Adds one block of spike terms, as the device gave them (B × P float32), into their rows in
 * float64; returns how many sat on the floor.
 */
export function addTermsToRows(ll: Float64Array, values: Float32Array, rows: Int32Array, start: number, nBins: number): number {
  let floored = 0;
  const n = values.length / nBins;
  for (let k = 0; k < n; k++) {
    const base = rows[start + k]! * nBins;
    const src = k * nBins;
    for (let p = 0; p < nBins; p++) {
      const v = values[src + p]!;
      // a floored term is float32(LOG_EPS) on the device; add the exact float64 floor instead. Without
      // a branch (floors and terms interleave unpredictably, so a branch mispredicts): v + 1·Δ
      // is exactly LOG_EPS since Δ = LOG_EPS − float32(LOG_EPS) is exact (Sterbenz), and v + 0·Δ is v
      const onFloor = +(v <= LOG_EPS_F32); // a number, not a branch (a ternary compiles to one)
      floored += onFloor;
      ll[base + p] = ll[base + p]! + (v + onFloor * FLOOR_CORRECTION);
    }
  }
  return floored;
}

/** LL[t, p] = −Λ(p) in every row: the likelihood before any spike term is added. */
export function groundProcessRows(summedGroundProcessIntensity: Float64Array, nTime: number): Float64Array {
  const ll = new Float64Array(nTime * summedGroundProcessIntensity.length);
  fillGroundProcess(ll, summedGroundProcessIntensity, nTime);
  return ll;
}

function fillGroundProcess(ll: Float64Array, summedGroundProcessIntensity: Float64Array, nTime: number): void {
  const nBins = summedGroundProcessIntensity.length;
  for (let p = 0; p < nBins; p++) ll[p] = -summedGroundProcessIntensity[p]!;
  for (let t = 1; t < nTime; t++) ll.copyWithin(t * nBins, 0, nBins);
}

interface SumExports {
  memory: WebAssembly.Memory;
  addTermsToRows(ll: number, values: number, rows: number, n: number, nBins: number, floor: number, correction: number, zero: number): number;
}

const PAGE_BYTES = 65_536;
/** terms staged in the module's memory per call */
const STAGED_TERMS = 1 << 18;
/** a likelihood larger than this stays a plain array summed by addTermsToRows (a module's memory has at most 4 GiB) */
const MAX_MODULE_BYTES = 2 ** 31;

let compiled: WebAssembly.Module | undefined;

/**
 * A released likelihood's module, kept for the next LikelihoodSum on this thread: a fresh one costs
 * its pages' first-touch faults (more than the sum itself costs) and a major collection
 * for the external memory, on the thread that sums the pool's terms while the workers need the
 * cores. Only one, and none larger than this, so a huge decode does not keep its memory forever.
 */
let spare: SumExports | undefined;
const MAX_SPARE_BYTES = 64 * 2 ** 20;

/** Where the terms go: a likelihood and how to add to it. */
export interface TermSink {
  readonly ll: Float64Array;
  /** adds one block (B × P) of spike terms for the spikes whose rows are rows[start …]; returns how many were on the floor */
  addTerms(values: Float32Array, rows: Int32Array, start: number): number;
  /** adds LOG_EPS to every bin of each row (an electrode without encoding spikes) */
  addFloor(rows: Int32Array): void;
  /** adds rows the device summed (deviceRowSums.ts): each bin's sum above the floor, and LOG_EPS per floored term */
  addRowSums(sums: Float32Array, floored: Float32Array): void;
}

/** ll[i] += sums[i] + floored[i]·LOG_EPS in float64: the floor exact, as addTermsToRows adds it. */
export function addRowSumsTo(ll: Float64Array, sums: Float32Array, floored: Float32Array): void {
  for (let i = 0; i < ll.length; i++) ll[i] = ll[i]! + (sums[i]! + floored[i]! * LOG_EPS);
}

export class LikelihoodSum implements TermSink {
  readonly ll: Float64Array;
  private sum: SumExports | undefined;
  private released = false;
  private readonly valuesAt: number;
  private readonly rowsAt: number;
  private readonly stagedRows: number;

  /** LL = −Λ(p) in each of nTime rows. */
  constructor(summedGroundProcessIntensity: Float64Array, nTime: number, private readonly nBins = summedGroundProcessIntensity.length) {
    this.stagedRows = Math.max(1, Math.floor(STAGED_TERMS / Math.max(1, nBins)));
    const llBytes = nTime * nBins * 8;
    const stagedBytes = this.stagedRows * nBins * 4 + this.stagedRows * 4;
    this.valuesAt = llBytes;
    this.rowsAt = llBytes + this.stagedRows * nBins * 4;
    if (llBytes + stagedBytes > MAX_MODULE_BYTES) {
      this.ll = groundProcessRows(summedGroundProcessIntensity, nTime);
      return;
    }
    if (spare && spare.memory.buffer.byteLength >= llBytes + stagedBytes) {
      this.sum = spare;
      spare = undefined;
    } else {
      compiled ??= new WebAssembly.Module(Uint8Array.from(atob(LIKELIHOOD_SUM_WASM_BASE64), (c) => c.charCodeAt(0)));
      this.sum = new WebAssembly.Instance(compiled).exports as unknown as SumExports;
      // the memory is grown once, now: the likelihood is a view of it, which a later growth would detach
      this.sum.memory.grow(Math.ceil((llBytes + stagedBytes) / PAGE_BYTES));
    }
    this.ll = new Float64Array(this.sum.memory.buffer, 0, nTime * nBins);
    fillGroundProcess(this.ll, summedGroundProcessIntensity, nTime);
  }

  addTerms(values: Float32Array, rows: Int32Array, start: number): number {
    this.assertHeld();
    const { sum, nBins } = this;
    if (!sum) return addTermsToRows(this.ll, values, rows, start, nBins);
    const n = values.length / nBins;
    const buffer = sum.memory.buffer;
    let floored = 0;
    for (let k0 = 0; k0 < n; k0 += this.stagedRows) {
      const k1 = Math.min(n, k0 + this.stagedRows);
      new Float32Array(buffer, this.valuesAt, (k1 - k0) * nBins).set(values.subarray(k0 * nBins, k1 * nBins));
      new Int32Array(buffer, this.rowsAt, k1 - k0).set(rows.subarray(start + k0, start + k1));
      floored += sum.addTermsToRows(0, this.valuesAt, this.rowsAt, k1 - k0, nBins, LOG_EPS_F32, FLOOR_CORRECTION, NO_CORRECTION);
    }
    return floored;
  }

  addFloor(rows: Int32Array): void {
    this.assertHeld();
    addFloorTerms(this.ll, rows, this.nBins);
  }

  addRowSums(sums: Float32Array, floored: Float32Array): void {
    this.assertHeld();
    addRowSumsTo(this.ll, sums, floored);
  }

  private assertHeld(): void {
    if (this.released) throw new Error('LikelihoodSum: terms added after release(); the likelihood belongs to another predict now');
  }

  /**
   * Hands the likelihood's memory to the next LikelihoodSum on this thread: `ll` must not be read
   * after this (it will hold another predict's likelihood). Once; a plain-array likelihood has
   * nothing to hand on.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    const { sum } = this;
    this.sum = undefined;
    if (sum && sum.memory.buffer.byteLength <= MAX_SPARE_BYTES && (!spare || spare.memory.buffer.byteLength < sum.memory.buffer.byteLength)) spare = sum;
  }
}
