import { describe, expect, it } from 'vitest';
import { makePreset } from '../../data';
import { resolveFastestStrategy, type SeriesReach } from '../../engine/model';
import { fakeEngineDeps } from '../testing';
import type { EngineDeps, FittedModel } from '../session';
import { INSTANT, instantSeverity } from '../../../shared/traceInstants';
import { markProbe, probeAutoStrategy, probeSlice } from './index';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("auto's probe slice", () => {
  it("keeps every electrode, only the probed one's first spikes and only the rows they fall in", () => {
    const ds = makePreset('tiny', { seed: 1 });
    const found = probeSlice(ds, 0, 5)!;
    const el = found.slice.electrodes[0]!;
    expect(found.slice.electrodes).toHaveLength(ds.electrodes.length);
    expect(found.slice.electrodes.slice(1).every((x) => x.decodingSpikeTimes.length === 0 && x.decodingFeatures.length === 0)).toBe(true);
    expect(found.spikes).toBeGreaterThanOrEqual(5);
    expect(el.decodingFeatures.length).toBe(found.spikes * el.nFeatures);
    const rows = found.slice.time;
    expect(rows.length).toBeLessThan(ds.time.length);
    expect(Array.from(el.decodingSpikeTimes).every((t) => t >= rows[0]! && t <= rows[rows.length - 1]!)).toBe(true);
  });
});

describe("auto's probe", () => {
  it('measures series faster where it is, and auto then takes it against a cost model that predicted the other', async () => {
    const base = fakeEngineDeps();
    const calls: string[] = [];
    const deps: Pick<EngineDeps, 'predictNonlocal'> = {
      predictNonlocal: async (m, d, strategy, o) => {
        calls.push(strategy);
        await sleep(strategy === 'series' ? 1 : 40);
        return base.predictNonlocal(m, d, strategy, o);
      },
    };
    const ds = makePreset('place', { seed: 1 });
    const model = await base.fitEncodingModel(ds);
    // a decode too small for even one block within the probe's share is not probed
    const tiny = makePreset('tiny', { seed: 1 });
    expect(await probeAutoStrategy(deps, model as FittedModel, tiny, { blockSize: 400 })).toBeNull();
    expect(calls).toEqual([]);
    const measured = (await probeAutoStrategy(deps, model as FittedModel, ds, { blockSize: 4 }))!;
    expect(calls).toEqual(['compensated', 'compensated', 'series', 'series']);
    expect(measured.record.candidates.map((c) => c.strategy)).toEqual(['compensated', 'series']);
    expect(measured.record.candidates[0]!.ms).toBeGreaterThan(measured.record.candidates[1]!.ms);
    expect(measured.probed.faster).toBe('series');
    expect(measured.record.summary).toMatch(/^series .*, compensated .* on \S+'s first \d+ decoding spikes$/);
    // a cost model that predicts compensated (no calibration: NLD's dispatch), overruled by what was measured
    const sizes = { nEnc: 4000, nDec: 3000, nBins: 400, nFeatures: 2, positionDims: 1, nTime: 0 };
    const reach: SeriesReach = { nNear: 3000, nFeatures: 10, factorKept: true, order: 3 };
    expect(resolveFastestStrategy(sizes, { blockSize: 100 }, reach).strategy).toBe('compensated');
    const c = resolveFastestStrategy(sizes, { blockSize: 100, probed: measured.probed }, reach);
    expect(c.strategy).toBe('series');
    expect(c.reason).toMatch(/^measured: series .*; the cost model predicted compensated/);

    // on the trace as a routine note with what decode.json keeps, and in a sentence for a decode's log
    const instants: [string, Record<string, unknown> | undefined][] = [];
    const lines: string[] = [];
    markProbe({ instant: (name, args) => void instants.push([name, args]) }, measured, (m) => lines.push(m));
    expect(instants).toEqual([[INSTANT.autoProbe, expect.objectContaining({ faster: 'series', summary: measured.record.summary, spikes: measured.record.spikes })]]);
    expect(instantSeverity(INSTANT.autoProbe)).toBe('routine');
    expect(lines).toEqual([expect.stringMatching(/^auto's probe: series .* \(.+\); it follows series where series' bound holds$/)]);
  });
});
