/**
 * addTermsToRows adds float32 spike terms into float64 rows, replacing each term on the float32
 * floor by the exact float64 LOG_EPS, without a branch. Checked against the plain definition; the
 * WebAssembly sum (LikelihoodSum) against addTermsToRows, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { LOG_EPS } from '../model';
import { addFloorTerms, addTermsToRows, groundProcessRows, LikelihoodSum } from './likelihoodSum';
import { rng } from '../testing/builders';

function byDefinition(ll: Float64Array, values: Float32Array, rows: Int32Array, start: number, nBins: number): number {
  let floored = 0;
  for (let k = 0; k < values.length / nBins; k++) {
    for (let p = 0; p < nBins; p++) {
      let v = values[k * nBins + p]!;
      if (v <= Math.fround(LOG_EPS)) {
        v = LOG_EPS;
        floored++;
      }
      const i = rows[start + k]! * nBins + p;
      ll[i] = ll[i]! + v;
    }
  }
  return floored;
}

describe('addTermsToRows', () => {
  it('gives the bits and the floor count of the definition, floors interleaved with terms and NaN kept', () => {
    const r = rng(3);
    const [nBins, nRows, nSpikes] = [37, 9, 40];
    const rows = Int32Array.from({ length: nSpikes + 5 }, () => Math.floor(r() * nRows));
    const values = Float32Array.from({ length: nSpikes * nBins }, (_, i) =>
      i % 97 === 5 ? NaN : r() < 0.5 ? Math.fround(LOG_EPS) : -34 * r() - 0.25);
    const base = Float64Array.from({ length: nRows * nBins }, () => -10 * r());
    const [got, want] = [Float64Array.from(base), Float64Array.from(base)];
    const floored = addTermsToRows(got, values, rows, 5, nBins);
    expect(floored).toBe(byDefinition(want, values, rows, 5, nBins));
    expect(floored).toBeGreaterThan(0);
    expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer))).toBe(true);
    // the correction lands exactly on the float64 floor
    const one = new Float64Array(1);
    addTermsToRows(one, Float32Array.of(Math.fround(LOG_EPS)), Int32Array.of(0), 0, 1);
    expect(one[0]).toBe(LOG_EPS);
  });
});

describe('LikelihoodSum', () => {
  it('adds blocks with the bits and floor counts of addTermsToRows: widths that are not whole vectors, blocks larger than its staging, floors, NaN and signed zeros', () => {
    const r = rng(11);
    for (const [nBins, nRows, blocks] of [[37, 9, [40, 1, 8000]], [4, 3, [5]], [1, 6, [7, 2]], [2000, 20, [3, 150]]] as const) {
      const ground = Float64Array.from({ length: nBins }, (_, p) => (p === 0 ? 0 : 3 * r()));
      const sum = new LikelihoodSum(ground, nRows);
      const want = groundProcessRows(ground, nRows);
      expect(Array.from(sum.ll)).toEqual(Array.from(want));
      let start = 0;
      const total = blocks.reduce((a, b) => a + b, 0);
      const rows = Int32Array.from({ length: total }, () => Math.floor(r() * nRows));
      for (const n of blocks) {
        const values = Float32Array.from({ length: n * nBins }, (_, i) =>
          i % 97 === 5 ? NaN : i % 89 === 3 ? -0 : r() < 0.4 ? Math.fround(LOG_EPS) : -34 * r() - 0.25);
        expect(sum.addTerms(values, rows, start), `P=${nBins} block of ${n}`).toBe(addTermsToRows(want, values, rows, start, nBins));
        start += n;
      }
      sum.addFloor(rows.subarray(0, 3));
      addFloorTerms(want, rows.subarray(0, 3), nBins);
      expect(Buffer.from(sum.ll.buffer, sum.ll.byteOffset, sum.ll.byteLength).equals(Buffer.from(want.buffer)), `P=${nBins}`).toBe(true);
    }
  });

  it('hands a released likelihood\'s memory to the next sum that fits in it, starting from the ground process again', () => {
    const ground = Float64Array.from({ length: 50 }, (_, p) => p / 7);
    const first = new LikelihoodSum(ground, 30);
    const rows = Int32Array.from({ length: 30 }, (_, k) => k);
    first.addTerms(new Float32Array(30 * 50).fill(-2.5), rows, 0);
    const memory = first.ll.buffer;
    first.release();
    first.release();
    expect(() => first.addTerms(new Float32Array(50), rows, 0)).toThrow(/after release/);
    // a smaller likelihood takes the spare, and holds the ground process, not the old sums
    const second = new LikelihoodSum(ground, 20);
    expect(second.ll.buffer).toBe(memory);
    expect(Array.from(second.ll)).toEqual(Array.from(groundProcessRows(ground, 20)));
    // while it is held, the next sum gets memory of its own
    const third = new LikelihoodSum(ground, 20);
    expect(third.ll.buffer).not.toBe(memory);
    second.release();
    third.release();
    // the larger of two released memories stays; a sum larger than it gets a fresh one
    const bigger = new LikelihoodSum(ground, 5000);
    expect(bigger.ll.buffer).not.toBe(memory);
    bigger.release();
    expect(new LikelihoodSum(ground, 4000).ll.buffer).toBe(bigger.ll.buffer);
  });
});
