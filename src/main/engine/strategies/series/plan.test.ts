import { describe, expect, it } from 'vitest';
import { rng, normal } from '../../testing/builders';
import {
  planSeries, scaledRow, seriesBasis, seriesFeatureCount, seriesFeatures, seriesReach, truncationBound, SERIES_RELATIVE_ERROR,
} from './plan';

/** Σ_α φ_α(a)·φ_α(b) with the basis' features: the truncated exp(a·b). */
function truncatedExp(order: number, a: number[], b: number[]): number {
  const basis = seriesBasis(order, a.length);
  const fa = new Float64Array(basis.nFeatures);
  const fb = new Float64Array(basis.nFeatures);
  seriesFeatures(basis, a, fa, 0);
  seriesFeatures(basis, b, fb, 0);
  return fa.reduce((s, v, i) => s + v * fb[i]!, 0);
}

describe('series basis', () => {
  it('has C(n + d, d) distinct monomials', () => {
    for (const [n, d] of [[0, 3], [1, 2], [3, 2], [4, 4], [6, 1]] as const) {
      expect(seriesBasis(n, d).nFeatures).toBe(seriesFeatureCount(n, d));
    }
    expect(seriesFeatureCount(3, 2)).toBe(10);
    expect(seriesFeatureCount(4, 4)).toBe(70);
  });

  it('reproduces the Taylor polynomial of exp(a·b) of its order exactly', () => {
    const a = [0.3, -0.2, 0.5];
    const b = [-0.4, 0.1, 0.25];
    const x = a.reduce((s, v, i) => s + v * b[i]!, 0);
    for (const n of [0, 1, 2, 5]) {
      let taylor = 0;
      let term = 1;
      for (let k = 0; k <= n; k++) {
        taylor += term;
        term *= x / (k + 1);
      }
      expect(truncatedExp(n, a, b)).toBeCloseTo(taylor, 14);
    }
  });
});

describe('truncation bound', () => {
  it('reach is where the bound meets the target, and the bound holds there on random pairs', () => {
    const r = rng(11);
    for (const n of [1, 3, 6]) {
      const x = seriesReach(n);
      expect(truncationBound(n, x)).toBeLessThanOrEqual(SERIES_RELATIVE_ERROR);
      expect(truncationBound(n, x * 1.01)).toBeGreaterThan(SERIES_RELATIVE_ERROR);
      for (let t = 0; t < 200; t++) {
        // pairs with |a|·|b| at the reach: the worst case the plan admits
        const a = [normal(r), normal(r)];
        const b = [normal(r), normal(r)];
        const na = Math.hypot(...a);
        const nb = Math.hypot(...b);
        const s = Math.sqrt(x / (na * nb));
        const as = a.map((v) => v * s);
        const bs = b.map((v) => v * s);
        const exact = Math.exp(as[0]! * bs[0]! + as[1]! * bs[1]!);
        expect(Math.abs(truncatedExp(n, as, bs) - exact) / exact).toBeLessThanOrEqual(SERIES_RELATIVE_ERROR * (1 + 1e-9));
      }
    }
  });
});

describe('planSeries', () => {
  it('marks within a fraction of σ of each other: a low order covering every spike like the encoding ones', () => {
    const r = rng(3);
    const E = 1000;
    const marks = Float64Array.from({ length: E * 2 }, () => normal(r));
    const plan = planSeries(marks, E, [24, 24]);
    expect(plan.direct).toBe(false);
    expect(plan.basis.order).toBeLessThanOrEqual(3);
    expect(plan.maxDecodingRadius).toBeGreaterThanOrEqual(plan.encodingRadius);
    const row = new Float64Array(2);
    for (let i = 0; i < E; i++) expect(Math.sqrt(scaledRow(plan, marks, i, row))).toBeLessThanOrEqual(plan.maxDecodingRadius);
  });

  it('marks spread over many σ: the highest order the feature limit allows, and a reach below the spread', () => {
    const r = rng(4);
    const E = 400;
    const marks = Float64Array.from({ length: E * 4 }, () => 150 * normal(r));
    const plan = planSeries(marks, E, [24, 24, 24, 24]);
    expect(plan.basis.nFeatures).toBeLessThanOrEqual(E / 4);
    expect(seriesFeatureCount(plan.basis.order + 1, 4)).toBeGreaterThan(E / 4);
    expect(plan.maxDecodingRadius).toBeLessThan(plan.encodingRadius);
  });

  it('too few encoding spikes for any saving: direct', () => {
    expect(planSeries(Float64Array.of(1, 2, 3), 3, [24]).direct).toBe(true);
  });

  it('identical encoding marks: order 0 and a reach far beyond any mark', () => {
    const plan = planSeries(new Float64Array(40).fill(7), 20, [5, 5]);
    expect(plan.basis.order).toBe(0);
    expect(plan.maxDecodingRadius).toBeGreaterThan(1e6);
  });
});
