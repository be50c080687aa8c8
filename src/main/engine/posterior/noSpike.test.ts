import { describe, expect, it } from 'vitest';
import { assembleLogLikelihood } from './logLikelihood';
import { medianStep, noSpikeLogLikelihood, spikeRow } from './noSpike';
import { columns, maxAbsDiff, predictionInputs, reference, spaceOf } from './testing';

describe('no-spike log likelihood (posterior-spec §8)', () => {
  it("equals the reference's No-Spike column of the detector", async () => {
    const { time, spikes } = await predictionInputs('detector');
    const ours = noSpikeLogLikelihood(time, spikes, 1e-10);
    const { data, shape } = await reference('detector_log_likelihood');
    const column = columns(data, shape[0]!, shape[1]!, 1, 2);
    expect(maxAbsDiff(ours, column)).toBeLessThan(1e-5);
    // each spike in [time[0], time[T−1]] adds log(1e-10 × 0.002) = −29.24
    const inWindow = spikes.flatMap((s) => Array.from(s).filter((v) => v >= time[0]! && v <= time[time.length - 1]!));
    expect(inWindow.length).toBeGreaterThan(0);
    const total = ours.reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(inWindow.length * Math.log(2e-13) - time.length * 4 * 2e-13, 3);
  });

  it('takes numpy.median of the steps and digitizes by time[1:-1]', () => {
    expect(medianStep(Float64Array.from([0, 1, 3, 4, 10]))).toBe(1.5);
    expect(medianStep(Float64Array.from([0, 1, 3, 4]))).toBe(1);
    const time = Float64Array.from([0, 1, 2, 3]);
    expect([-0.5, 0, 0.5, 1, 2.5, 3, 3.5].map((s) => spikeRow(time, s))).toEqual([-1, 0, 0, 1, 2, 2, -1]);
    expect(spikeRow(Float64Array.from([5]), 5)).toBe(0);
  });
});

describe('assembleLogLikelihood', () => {
  it('rebuilds the reference detector log likelihood from its parts, the two non-local states sharing one', async () => {
    const space = await spaceOf('detector_gaps');
    const { data, shape } = await reference('detector_gaps_log_likelihood');
    const [rows, n] = [shape[0]!, shape[1]!];
    const p = space.nInteriorBins;
    const parts = { local: columns(data, rows, n, 0, 1), noSpike: columns(data, rows, n, 1, 2), nonLocal: columns(data, rows, n, 2, 2 + p) };
    const ll = assembleLogLikelihood(space, rows, parts);
    expect(ll).toEqual(Float32Array.from(data));
    const missing = new Uint8Array(rows);
    missing[3] = 1;
    const withMissing = assembleLogLikelihood(space, rows, parts, missing);
    expect(withMissing.subarray(3 * n, 4 * n).every((v) => v === 0)).toBe(true);
    expect(withMissing.subarray(4 * n)).toEqual(ll.subarray(4 * n));
  });

  it('names the part a state lacks', async () => {
    const space = await spaceOf('detector');
    expect(() => assembleLogLikelihood(space, 2, { nonLocal: new Float32Array(2 * space.nInteriorBins) })).toThrow(/Local/);
  });
});
