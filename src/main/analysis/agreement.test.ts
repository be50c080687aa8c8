import { describe, expect, it } from 'vitest';
import { BugError } from '../../shared/errors';
import { agreementMatrix, compareArrays, rowArgmax } from './agreement';

const base = (): Float64Array => Float64Array.from([-10.1, -12, -11, -34.5, -20, -20.5]); // 2 rows × 3 bins

describe('compareArrays', () => {
  it('finds identical arrays identical', () => {
    expect(compareArrays(base(), base(), 2, 3, 'reference')).toEqual({
      against: 'reference', maxAbsDiff: 0, meanAbsDiff: 0, allclose: true, argmaxAgreement: 1,
    });
  });

  it('fails allclose for 2e-4 at one entry where atol dominates, and passes 5e-5', () => {
    const b = Float64Array.from([0, 0, 0, 0]);
    const a = Float64Array.from([0, 2e-4, 0, 0]);
    const g = compareArrays(a, b, 2, 2, 'reference');
    expect(g.allclose).toBe(false);
    expect(g.maxAbsDiff).toBeCloseTo(2e-4, 15);
    expect(g.meanAbsDiff).toBeCloseTo(5e-5, 15);
    a[1] = 5e-5;
    expect(compareArrays(a, b, 2, 2, 'reference').allclose).toBe(true);
  });

  it('scales the tolerance with the reference side |b|', () => {
    const b = Float64Array.from([-34.5]);
    // atol + rtol·|b| = 1e-4 + 3.45e-3
    expect(compareArrays(Float64Array.from([-34.5 + 3.5e-3]), b, 1, 1, 'r').allclose).toBe(true);
    expect(compareArrays(Float64Array.from([-34.5 + 3.6e-3]), b, 1, 1, 'r').allclose).toBe(false);
  });

  it('counts a row as agreeing only when the first maximum is at the same bin', () => {
    const b = Float64Array.from([1, 3, 3]);
    expect(rowArgmax(b, 0, 3)).toBe(1);
    expect(compareArrays(Float64Array.from([1, 3, 2]), b, 1, 3, 'r').argmaxAgreement).toBe(1);
    expect(compareArrays(Float64Array.from([1, 2, 3]), b, 1, 3, 'r').argmaxAgreement).toBe(0);
    const two = compareArrays(Float64Array.from([0, 1, 1, 0]), Float64Array.from([0, 1, 0, 1]), 2, 2, 'r');
    expect(two.argmaxAgreement).toBe(0.5);
  });

  it('treats NaN on one side as a disagreement with an infinite max diff', () => {
    const a = base();
    a[5] = NaN;
    const g = compareArrays(a, base(), 2, 3, 'reference');
    expect(g.maxAbsDiff).toBe(Infinity);
    expect(g.allclose).toBe(false);
    expect(g.meanAbsDiff).toBe(0); // finite pairs are all equal
    expect(g.argmaxAgreement).toBe(0.5); // the NaN row's argmax moves to the NaN
  });

  it('agrees where both sides are NaN or the same infinity, not opposite infinities', () => {
    const a = Float64Array.from([NaN, -Infinity, 1]);
    const b = Float64Array.from([NaN, -Infinity, 1]);
    expect(compareArrays(a, b, 1, 3, 'r')).toMatchObject({ maxAbsDiff: 0, allclose: true, argmaxAgreement: 1 });
    const c = Float64Array.from([NaN, Infinity, 1]);
    expect(compareArrays(a, c, 1, 3, 'r')).toMatchObject({ maxAbsDiff: Infinity, allclose: false });
  });

  it('compares float32 against float64 and rejects mismatched lengths', () => {
    const g = compareArrays(Float32Array.from(base()), base(), 2, 3, 'reference');
    expect(g.allclose).toBe(true);
    expect(g.maxAbsDiff).toBeGreaterThan(0);
    expect(() => compareArrays(base(), base(), 3, 3, 'r')).toThrow(BugError);
  });

  it('is vacuously in agreement with no rows', () => {
    expect(compareArrays(new Float64Array(0), new Float64Array(0), 0, 5, 'r').argmaxAgreement).toBe(1);
  });
});

describe('agreementMatrix', () => {
  it('is symmetric with a 0 / true / 1 diagonal and the pairwise values off it', () => {
    const ref = base();
    const near = base();
    near[0]! -= 1e-6;
    const far = base();
    far[0] = -13.1; // row 0's argmax moves from bin 0 to bin 2
    const m = agreementMatrix([{ name: 'reference', values: ref }, { name: 'compensated', values: near }, { name: 'logsumexp', values: far }], 2, 3);
    expect(m.strategies).toEqual(['reference', 'compensated', 'logsumexp']);
    for (let i = 0; i < 3; i++) {
      expect(m.maxAbsDiff[i]![i]).toBe(0);
      expect(m.meanAbsDiff[i]![i]).toBe(0);
      expect(m.allclose[i]![i]).toBe(true);
      expect(m.argmaxAgreement[i]![i]).toBe(1);
      for (let j = 0; j < 3; j++) {
        expect(m.maxAbsDiff[i]![j]).toBe(m.maxAbsDiff[j]![i]);
        expect(m.allclose[i]![j]).toBe(m.allclose[j]![i]);
      }
    }
    expect(m.allclose[0]![1]).toBe(true);
    expect(m.maxAbsDiff[0]![1]).toBeCloseTo(1e-6, 12);
    expect(m.allclose[0]![2]).toBe(false);
    expect(m.maxAbsDiff[0]![2]).toBeCloseTo(3, 12);
    expect(m.argmaxAgreement[0]![2]).toBe(0.5);
  });
});
