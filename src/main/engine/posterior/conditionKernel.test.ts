import { describe, expect, it } from 'vitest';
import { seededRandom as uniforms } from '../../analysis';
import { rowConditioner } from './conditionKernel';
import { EXP_UNDERFLOW, expOfNonPositive } from './posteriorExp';
import { posteriorKernelInstance } from './posteriorKernels';

describe('expOfNonPositive', () => {
  it('is within 3e-16 of Math.exp (relative) over [−746, 0] where the result is normal, and exact at 0', () => {
    const next = uniforms(7);
    let worst = 0;
    for (let i = 0; i < 200_000; i++) {
      const x = i % 2 === 0 ? -next() * 746 : -next() * 2;
      const want = Math.exp(x);
      if (want < 2.3e-308) continue;
      worst = Math.max(worst, Math.abs(expOfNonPositive(x) - want) / want);
    }
    expect(worst).toBeLessThan(3e-16);
    expect(expOfNonPositive(0)).toBe(1);
    expect(expOfNonPositive(-0)).toBe(1);
  });

  it('reaches the subnormals within one step of the smallest, and gives NaN for NaN', () => {
    // e^−740 ≈ 4.2e−322, 85 steps of the smallest subnormal (4.9e−324)
    expect(Math.abs(expOfNonPositive(-740) - Math.exp(-740))).toBeLessThanOrEqual(5e-324);
    expect(Math.abs(expOfNonPositive(-745) - Math.exp(-745))).toBeLessThanOrEqual(5e-324);
    expect(expOfNonPositive(EXP_UNDERFLOW)).toBe(0);
    expect(expOfNonPositive(Number.NaN)).toBeNaN();
  });
});

describe.runIf(posteriorKernelInstance() !== null)('conditionRow on WebAssembly SIMD', () => {
  it('gives the plain loop\'s u and sum bit for bit: odd and even rows, −∞, far tails, zeros and subnormal predictions', () => {
    const next = uniforms(11);
    for (const n of [1, 2, 3, 7, 88, 89, 178]) {
      const kernel = rowConditioner(n, 'auto');
      const plain = rowConditioner(n, 'plain');
      const rows = 40;
      const ll = new Float32Array(rows * n);
      for (let i = 0; i < ll.length; i++) {
        const pick = next();
        ll[i] = pick < 0.05 ? -Infinity : pick < 0.15 ? -700 - 100 * next() : -60 * next();
      }
      const pred = new Float32Array(n);
      for (let t = 0; t < rows; t++) {
        for (let k = 0; k < n; k++) pred[k] = next() < 0.1 ? 0 : next() < 0.1 ? 1e-40 : next();
        let max = -Infinity;
        for (let k = 0; k < n; k++) max = Math.max(max, ll[t * n + k]!);
        const m = Number.isFinite(max) ? max : 0;
        const a = kernel.condition(ll, t * n, pred, m);
        const b = plain.condition(ll, t * n, pred, m);
        expect(a).toBe(b);
        expect(Array.from(kernel.u)).toEqual(Array.from(plain.u));
      }
    }
  });

  it("gives the plain loops' row maximum and normalised row: NaN passed over, −∞ rows, odd and even lengths", () => {
    const next = uniforms(13);
    for (const n of [1, 2, 3, 4, 5, 7, 88, 89]) {
      const kernel = rowConditioner(n, 'auto');
      const plain = rowConditioner(n, 'plain');
      const rows = 30;
      const ll = new Float32Array(rows * n);
      for (let i = 0; i < ll.length; i++) {
        const pick = next();
        ll[i] = pick < 0.1 ? Number.NaN : pick < 0.2 ? -Infinity : pick < 0.25 ? Infinity : (next() - 0.5) * 80;
      }
      // a row of −∞ and NaN only has no maximum
      for (let k = 0; k < n; k++) ll[k] = k % 2 ? Number.NaN : -Infinity;
      const pred = Float32Array.from({ length: n }, () => next());
      const [a, b] = [new Float32Array(rows * n), new Float32Array(rows * n)];
      for (let t = 0; t < rows; t++) {
        const [ma, mb] = [kernel.rowMax(ll, t * n), plain.rowMax(ll, t * n)];
        expect(Object.is(ma, mb)).toBe(true);
        // a row holding +∞ is conditioned with Math.exp by the filter, never here
        if (ma === Infinity) continue;
        const m = Number.isFinite(ma) ? ma : 0;
        kernel.condition(ll, t * n, pred, m);
        plain.condition(ll, t * n, pred, m);
        const factor = 1 / (1 + next());
        kernel.normalizeInto(a, t * n, factor);
        plain.normalizeInto(b, t * n, factor);
      }
      // every value the same, zeros' signs included (a NaN's payload may differ: it is still NaN)
      expect(Array.from(a)).toEqual(Array.from(b));
    }
  });

  it("gives the plain loop's u and sum where a part of the row repeats an earlier one's likelihood, and where it almost does", () => {
    const next = uniforms(17);
    for (const p of [1, 2, 5, 8, 57]) {
      // the detector's layout: two one-bin states, then two non-local states of p bins reading one likelihood
      const n = 2 + 2 * p;
      const kernel = rowConditioner(n, 'auto', [{ start: 2 + p, from: 2, length: p }]);
      const plain = rowConditioner(n, 'plain');
      const rows = 24;
      const ll = new Float32Array(rows * n);
      for (let t = 0; t < rows; t++) {
        const row = t * n;
        for (let k = 0; k < 2 + p; k++) ll[row + k] = next() < 0.1 ? -Infinity : next() < 0.1 ? Number.NaN : -40 * next();
        ll.copyWithin(row + 2 + p, row + 2, row + 2 + p);
        // rows that almost repeat: one value apart, or a zero of the other sign (the same number, other bits)
        const k = row + 2 + p + Math.floor(next() * p);
        if (t % 4 === 1) ll[k] = ll[k]! - 1;
        if (t % 4 === 2) {
          ll[k - p] = 0;
          ll[k] = -0;
        }
      }
      const pred = Float32Array.from({ length: n }, () => (next() < 0.1 ? 0 : next()));
      for (let t = 0; t < rows; t++) {
        // (the kernel's maximum of 0 and −0 may be either zero: the same max for the condition)
        const m = plain.rowMax(ll, t * n);
        const max = Number.isFinite(m) ? m : 0;
        const [a, b] = [kernel.condition(ll, t * n, pred, max), plain.condition(ll, t * n, pred, max)];
        expect(Object.is(a, b)).toBe(true);
        expect(Array.from(kernel.u)).toEqual(Array.from(plain.u));
      }
    }
  });

  it('keeps NaN where the likelihood is NaN, as the loop does', () => {
    const ll = Float32Array.from([0, Number.NaN, -1]);
    const pred = Float32Array.from([0.2, 0.3, 0.5]);
    const kernel = rowConditioner(3, 'auto');
    expect(kernel.condition(ll, 0, pred, 0)).toBeNaN();
    expect(kernel.u[1]).toBeNaN();
    expect(kernel.u[0]).toBe(Math.fround(0.2));
  });
});
