/**
 * posterior-spec §15's traps that this layer owns: each test computes the correct result and
 * checks it against the reference, then computes the mistake inline and checks that it misses the
 * reference by more than the tolerance, so the tolerance is shown able to catch it.
 */
import { describe, expect, it } from 'vitest';
import { filterSmooth } from './filterSmooth';
import { assembleLogLikelihood } from './logLikelihood';
import { medianStep, noSpikeLogLikelihood } from './noSpike';
import { maskedPosterior } from './outputs';
import { columns, logLikelihoodOf, maxAbsDiff, predictionInputs, reference, spaceOf, type ReferenceCase } from './testing';
import { transitionProduct } from './transitionProducts';
import type { StateSpace } from './stateSpaceTypes';

const ATOL = 5e-6;

async function acausalMiss(name: ReferenceCase, space: StateSpace, ll?: Float32Array): Promise<number> {
  const given = await logLikelihoodOf(name);
  const result = filterSmooth(space, ll ?? given.ll, given.rows, 'structured');
  const masked = maskedPosterior(space, result.acausal, given.rows);
  return maxAbsDiff(masked, (await reference(`${name}_acausal_posterior`)).data);
}

/** The detector's log likelihood with its No-Spike column replaced by `noSpike`. */
async function detectorWithNoSpike(space: StateSpace, noSpike: Float32Array): Promise<Float32Array> {
  const { data, shape } = await reference('detector_log_likelihood');
  const [rows, n] = [shape[0]!, shape[1]!];
  const parts = { local: columns(data, rows, n, 0, 1), noSpike, nonLocal: columns(data, rows, n, 2, 2 + space.nInteriorBins) };
  return assembleLogLikelihood(space, rows, parts);
}

describe('§15 traps', () => {
  it.each(['decoder', 'detector'] as const)('%s: no transition before the first row', async (name) => {
    const space = await spaceOf(name);
    expect(await acausalMiss(name, space)).toBeLessThan(ATOL);
    const mistaken = new Float64Array(space.nInteriorStateBins);
    transitionProduct(space, 'dense').forward(space.initial, 0, mistaken);
    expect(await acausalMiss(name, { ...space, initial: Float32Array.from(mistaken) })).toBeGreaterThan(10 * ATOL);
  });

  it.each(['decoder', 'detector'] as const)('%s: movement_var is a variance, not a standard deviation', async (name) => {
    expect(await acausalMiss(name, await spaceOf(name))).toBeLessThan(ATOL);
    expect(await acausalMiss(name, await spaceOf(name, { movementVar: 6 * 6 }))).toBeGreaterThan(10 * ATOL);
  });

  it('the detector starts in Local, not uniformly over its states', async () => {
    expect(await acausalMiss('detector', await spaceOf('detector'))).toBeLessThan(ATOL);
    const uniform = await spaceOf('detector', { discreteInitial: [0.25, 0.25, 0.25, 0.25] });
    expect(await acausalMiss('detector', uniform)).toBeGreaterThan(10 * ATOL);
  });

  it('the no-spike rate is scaled by median(diff(time))', async () => {
    const space = await spaceOf('detector');
    const { time, spikes } = await predictionInputs('detector');
    const correct = noSpikeLogLikelihood(time, spikes, space.noSpikeRate);
    expect(await acausalMiss('detector', space, await detectorWithNoSpike(space, correct))).toBeLessThan(ATOL);
    expect(medianStep(time)).toBeCloseTo(0.002, 12);
    const unscaled = noSpikeLogLikelihood(time, spikes, space.noSpikeRate / medianStep(time));
    expect(await acausalMiss('detector', space, await detectorWithNoSpike(space, unscaled))).toBeGreaterThan(10 * ATOL);
  });

  it('a spike at or after time[T−1] never reaches the last row', async () => {
    const { time, spikes } = await predictionInputs('decoder');
    const rows = time.length;
    const last = time[rows - 1]!;
    // the decoder's window has a spike exactly at time[T−1]: digitize(s, time[1:-1]) puts it in row T−2
    expect(spikes.some((s) => s.includes(last))).toBe(true);
    const ours = noSpikeLogLikelihood(time, spikes, 1e-10);
    const r = 1e-10 * medianStep(time);
    const noSpikeRow = Math.fround(-spikes.length * r);
    expect(ours[rows - 1]).toBe(noSpikeRow);
    // the mistaken row rule (searchsorted over all of time) gives that spike to the last row
    const mistakenLast = spikes.flatMap((s) => Array.from(s)).filter((s) => s >= last && s < last + 0.002).length * Math.log(r) - spikes.length * r;
    expect(Math.abs(mistakenLast - noSpikeRow)).toBeGreaterThan(10 * ATOL);
    expect(ours[rows - 2]!).toBeLessThan(Math.log(r) + 1);
  });
});
