import { describe, expect, it } from 'vitest';
import { CausalFilter } from './causalFilter';
import { filterSmooth } from './filterSmooth';
import { assembleOutputs, maskedPosterior } from './outputs';
import { CASES, logLikelihoodOf, maxAbsDiff, reference, spaceOf, type ReferenceCase } from './testing';
import type { TransitionMethod } from './transitionProducts';

/** posterior-spec §0: a float32 engine sits within about 1e-6 of the float64 reference. */
const ATOL = 5e-6;
const METHODS: TransitionMethod[] = ['dense', 'structured'];
const RUNS = CASES.flatMap((name) => METHODS.map((method) => [name, method] as [ReferenceCase, TransitionMethod]));

async function run(name: ReferenceCase, method: TransitionMethod) {
  const space = await spaceOf(name);
  const { ll, rows } = await logLikelihoodOf(name);
  const result = filterSmooth(space, ll, rows, method);
  return { space, rows, result, outputs: assembleOutputs(space, result, rows) };
}

describe('filter and smoother against the float64 reference (posterior-spec §9–§12)', () => {
  it.each(RUNS)('%s, %s: posteriors, state probabilities and marginal likelihood', async (name, method) => {
    const { space, rows, result, outputs } = await run(name, method);
    expect(maxAbsDiff(outputs.acausalPosterior, (await reference(`${name}_acausal_posterior`)).data)).toBeLessThan(ATOL);
    expect(maxAbsDiff(result.causal, (await reference(`${name}_causal_posterior`)).data)).toBeLessThan(ATOL);
    expect(maxAbsDiff(result.predictive, (await reference(`${name}_predictive_posterior`)).data)).toBeLessThan(ATOL);
    const acausalStates = await reference(`${name}_acausal_state_probabilities`);
    expect(maxAbsDiff(outputs.acausalStateProbabilities, acausalStates.data)).toBeLessThan(ATOL);
    const causalStates = await reference(`${name}_causal_state_probabilities`);
    expect(maxAbsDiff(outputs.causalStateProbabilities, causalStates.data)).toBeLessThan(ATOL);
    const logMarginal = (await reference(`${name}_marginal_log_likelihood`)).data[0]!;
    expect(Math.abs(result.marginalLogLikelihood - logMarginal)).toBeLessThan(1e-3 * Math.abs(logMarginal));
    // NaN exactly in the non-interior columns
    const nan = Array.from(outputs.acausalPosterior.subarray(0, space.nStateBins), Number.isNaN);
    expect(nan).toEqual(Array.from(space.isInteriorStateBin, (v) => v === 0));
    expect(outputs.acausalPosterior.length).toBe(rows * space.nStateBins);
  });

  it.each(['decoder', 'detector'] as const)('%s: within 1e-5 of NLD golden acausal posterior', async (name) => {
    for (const method of METHODS) {
      const { outputs } = await run(name, method);
      expect(maxAbsDiff(outputs.acausalPosterior, (await reference(`golden_${name}_acausal_posterior`)).data)).toBeLessThan(1e-5);
      if (name === 'detector') {
        const golden = await reference('golden_detector_acausal_state_probabilities');
        expect(maxAbsDiff(outputs.acausalStateProbabilities, golden.data)).toBeLessThan(1e-5);
      }
    }
  });

  it('dense and structured agree to float32 rounding', async () => {
    const dense = await run('detector_gaps', 'dense');
    const structured = await run('detector_gaps', 'structured');
    expect(maxAbsDiff(dense.result.acausal, structured.result.acausal)).toBeLessThan(1e-6);
  });

  it('the MAP position is the centre of the bin with most spatial mass', async () => {
    const { space, rows, result, outputs } = await run('decoder', 'structured');
    const masked = maskedPosterior(space, result.acausal, rows);
    for (const t of [0, 17, rows - 1]) {
      const row = Array.from(masked.subarray(t * space.nStateBins, (t + 1) * space.nStateBins));
      const best = row.indexOf(Math.max(...row));
      expect(outputs.mapPosition[t]).toBe(space.grid.centers[best]);
    }
  });
});

describe('the causal filter on the posterior kernels and on its plain loops', () => {
  it.each(['decoder', 'detector'] as const)('%s: the same causal and predictive posteriors and marginal likelihood, bit for bit, rows holding ±∞ included', async (name) => {
    const space = await spaceOf(name);
    const { ll: golden, rows } = await logLikelihoodOf(name);
    const n = space.nInteriorStateBins;
    const used = Math.min(rows, 400);
    const ll = golden.slice(0, used * n);
    // a row with −∞ and far tails among its bins; at the end (each leaves nothing to filter after it)
    // a row wholly −∞ and a row with one bin at +∞, which keeps Math.exp
    for (let k = 0; k < n; k += 3) ll[30 * n + k] = k % 2 === 0 ? -Infinity : ll[30 * n + k]! - 800;
    ll.fill(-Infinity, (used - 2) * n, (used - 1) * n);
    ll[(used - 1) * n + 3] = Infinity;
    const filter = (kernels: 'auto' | 'plain') => {
      const causal = new Float32Array(used * n);
      const predictive = new Float32Array(used * n);
      const f = new CausalFilter(space, 'structured', kernels);
      f.filterWindow(ll, used, causal, predictive);
      return { causal, predictive, logMl: f.marginalLogLikelihood };
    };
    const auto = filter('auto');
    const plain = filter('plain');
    expect(auto.logMl).toBe(plain.logMl);
    expect(Buffer.from(auto.causal.buffer).equals(Buffer.from(plain.causal.buffer))).toBe(true);
    expect(Buffer.from(auto.predictive.buffer).equals(Buffer.from(plain.predictive.buffer))).toBe(true);
    // past the row of −∞ and tails the filter goes on with a posterior that sums to 1
    expect(auto.causal.subarray(35 * n, 36 * n).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });
});

describe('filterSmooth into buffers the caller keeps', () => {
  it('writes every value: outputs poisoned with NaN, used twice, give the bits of fresh ones', async () => {
    const space = await spaceOf('detector');
    const { ll, rows } = await logLikelihoodOf('detector');
    const fresh = filterSmooth(space, ll, rows, 'structured');
    const size = rows * space.nInteriorStateBins;
    // one value longer than needed: the tail is not the caller's posterior and stays as it was
    const into = { causal: new Float32Array(size + 1).fill(NaN), predictive: new Float32Array(size + 1).fill(NaN), acausal: new Float32Array(size + 1).fill(NaN) };
    for (let round = 0; round < 2; round++) {
      const kept = filterSmooth(space, ll, rows, 'structured', into);
      expect(kept.acausal).toBe(into.acausal);
      expect(kept.marginalLogLikelihood).toBe(fresh.marginalLogLikelihood);
      for (const key of ['causal', 'predictive', 'acausal'] as const) {
        expect(Buffer.from(into[key].buffer, 0, 4 * size).equals(Buffer.from(fresh[key].buffer))).toBe(true);
        expect(into[key][size]).toBeNaN();
      }
    }
  });

  it('refuses outputs shorter than T × N', async () => {
    const space = await spaceOf('decoder');
    const { ll, rows } = await logLikelihoodOf('decoder');
    const short = new Float32Array(rows * space.nInteriorStateBins - 1);
    const ok = new Float32Array(rows * space.nInteriorStateBins);
    expect(() => filterSmooth(space, ll, rows, 'dense', { causal: ok, predictive: ok.slice(), acausal: short })).toThrow(/each output needs/);
  });
});
