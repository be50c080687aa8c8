import { describe, expect, it } from 'vitest';
import { AcausalSmoother } from './acausalSmoother';
import { CausalFilter } from './causalFilter';
import { filterSmooth } from './filterSmooth';
import { maskedPosterior } from './outputs';
import { logLikelihoodOf, spaceOf } from './testing';
import type { StateSpace } from './stateSpaceTypes';
import type { TransitionMethod } from './transitionProducts';

/** Filters in windows of `size` rows, then smooths them last window first, as a streaming caller. */
function inWindows(space: StateSpace, ll: Float32Array, rows: number, size: number, method: TransitionMethod, reuse: boolean) {
  const n = space.nInteriorStateBins;
  const causal = new Float32Array(rows * n);
  const predictive = new Float32Array(rows * n);
  const acausal = new Float32Array(rows * n);
  const filter = new CausalFilter(space, method);
  const starts: number[] = [];
  for (let start = 0; start < rows; start += size) {
    const count = Math.min(size, rows - start);
    const window = (a: Float32Array) => a.subarray(start * n, (start + count) * n);
    filter.filterWindow(window(ll), count, window(causal), window(predictive));
    starts.push(start);
  }
  const smoother = new AcausalSmoother(space, method);
  for (const start of starts.reverse()) {
    const count = Math.min(size, rows - start);
    const window = (a: Float32Array) => a.subarray(start * n, (start + count) * n);
    smoother.smoothWindow(window(causal), count, window(acausal), reuse ? window(predictive) : undefined);
  }
  return { causal, predictive, acausal, marginalLogLikelihood: filter.marginalLogLikelihood };
}

describe('window-by-window filtering and smoothing', () => {
  it.each([
    ['detector_gaps', 'dense'], ['detector_gaps', 'structured'], ['decoder', 'structured'],
  ] as const)('%s, %s: windows of 7 rows and of 1 row give the one-window result exactly, reusing the predictive posterior or not', async (name, method) => {
    const space = await spaceOf(name);
    const { ll, rows } = await logLikelihoodOf(name);
    const whole = filterSmooth(space, ll, rows, method);
    for (const [size, reuse] of [[7, true], [7, false], [1, true], [1, false], [rows, false]] as const) {
      const windowed = inWindows(space, ll, rows, size, method, reuse);
      expect(windowed.causal).toEqual(whole.causal);
      expect(windowed.predictive).toEqual(whole.predictive);
      expect(windowed.acausal).toEqual(whole.acausal);
      expect(windowed.marginalLogLikelihood).toBe(whole.marginalLogLikelihood);
    }
  });
});

describe('edge cases', () => {
  it('T = 1: the causal and acausal posteriors are the normalised initial × likelihood', async () => {
    const space = await spaceOf('decoder_gaps');
    const n = space.nInteriorStateBins;
    const ll = Float32Array.from({ length: n }, (_, k) => -0.5 * ((k - 30) / 4) ** 2);
    for (const method of ['dense', 'structured'] as const) {
      const result = filterSmooth(space, ll, 1, method);
      const u = Array.from(ll, (v) => Math.exp(v) / n);
      const mass = u.reduce((a, b) => a + b, 0);
      result.causal.forEach((v, k) => expect(v).toBeCloseTo(u[k]! / mass, 7));
      expect(result.acausal).toEqual(result.causal);
      expect(result.marginalLogLikelihood).toBeCloseTo(Math.log(mass), 6);
    }
  });

  it('a row with −inf everywhere gives zeros (m_t = 0), never NaN', async () => {
    const space = await spaceOf('detector');
    const { ll: reference, rows } = await logLikelihoodOf('detector');
    const n = space.nInteriorStateBins;
    const ll = Float32Array.from(reference);
    ll.fill(-Infinity, 20 * n, 21 * n);
    for (const method of ['dense', 'structured'] as const) {
      const result = filterSmooth(space, ll, rows, method);
      expect(result.causal.some(Number.isNaN)).toBe(false);
      expect(result.acausal.some(Number.isNaN)).toBe(false);
      expect(result.causal.subarray(20 * n, 21 * n).every((v) => v === 0)).toBe(true);
      // no mass survives the empty row: every later row, and every smoothed row, is zero too
      expect(result.acausal.every((v) => v === 0)).toBe(true);
      expect(result.marginalLogLikelihood).toBe(-Infinity);
      const masked = maskedPosterior(space, result.acausal, rows);
      expect(masked.filter((v) => !Number.isNaN(v)).length).toBe(rows * n);
    }
  });

  it('a row of −inf only where the prediction is zero leaves the other states in place', async () => {
    const space = await spaceOf('detector');
    const n = space.nInteriorStateBins;
    const ll = new Float32Array(n).fill(-Infinity);
    ll[0] = -3; // the Local state, where the detector starts with certainty
    const result = filterSmooth(space, ll, 1, 'structured');
    expect(result.causal[0]).toBeCloseTo(1, 12);
    expect(result.marginalLogLikelihood).toBeCloseTo(-3, 6);
  });
});
