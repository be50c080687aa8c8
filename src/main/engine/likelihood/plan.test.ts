/**
 * The plan resolves each electrode's strategy once, asking whoever holds the fitted electrodes for
 * series' reach only where `auto` can weigh it; a plan is run as it is given, whichever strategies
 * it names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Calibration, SeriesReach } from '../model';
import { fitEncodingModel } from '../fit/fit';
import { initBackend } from '../backends/backends';
import { smallDataset } from '../testing/builders';
import { inThreadExecutor } from './executor';
import { planNonlocal, type ElectrodeMarks, type ReachSource } from './plan';
import { predictNonlocal, runNonlocalPlan } from './predict';

const CALIBRATION: Calibration = {
  backend: 'wasm', device: 'test', matmulGflops: 20, expGelemsPerS: 0.5, logGelemsPerS: 0.5, bandwidthGBps: 10,
  measuredAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
};

// electrode 1 has no encoding spikes (the floor), electrode 2 no decoding spikes (nothing)
const dataset = smallDataset({
  seed: 5,
  electrodes: [
    { nEnc: 40, nDec: 15, nFeatures: 2 },
    { nEnc: 0, nDec: 6, nFeatures: 2 },
    { nEnc: 30, nDec: 0, nFeatures: 2 },
    { nEnc: 25, nDec: 10, nFeatures: 2 },
  ],
});

/** A holder of fitted electrodes that records what the plan asked of it. */
function recordingSource(): ReachSource & { asked: ElectrodeMarks[][] } {
  const asked: ElectrodeMarks[][] = [];
  return {
    asked,
    model: { nBins: 25, nEnc: [40, 0, 30, 25], summedGroundProcessIntensity: new Float64Array(25) },
    seriesReach: async (asks) => {
      asked.push([...asks]);
      return asks.map((a): SeriesReach => ({ nNear: a.nDec, nFeatures: 6, order: 2, factorKept: false }));
    },
  };
}

const bytes = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

beforeAll(async () => {
  await initBackend('wasm');
});

describe('the non-local plan', () => {
  it('asks for series reach once, for the electrodes auto can compare, and only when calibrated', async () => {
    const calibrated = recordingSource();
    const plan = await planNonlocal(calibrated, dataset, 'auto', { blockSize: 4, calibration: CALIBRATION });
    expect(calibrated.asked.map((asks) => asks.map((a) => a.electrode))).toEqual([[0, 3]]);
    expect(plan.electrodes.map((p) => p.kind)).toEqual(['terms', 'floor', 'none', 'terms']);
    expect(plan.electrodes.every((p) => p.choice.reason !== undefined)).toBe(true);
    for (const strategy of ['auto', 'nld-dispatch', 'compensated'] as const) {
      const source = recordingSource();
      await planNonlocal(source, dataset, strategy, { blockSize: 4 });
      expect(source.asked).toEqual([]);
    }
  });

  it('is run as it is given: its strategies and reasons, and the bits of those strategies', async () => {
    const model = await fitEncodingModel(dataset);
    try {
      const executor = inThreadExecutor(model);
      const asked = await planNonlocal(executor, dataset, 'auto', { blockSize: 4 });
      const plan = { ...asked, electrodes: asked.electrodes.map((p) => ({ ...p, choice: { strategy: 'reference' as const, reason: 'given' } })) };
      const given = await runNonlocalPlan(executor, plan, { blockSize: 4 });
      const reference = await predictNonlocal(model, dataset, 'reference', { blockSize: 4 });
      expect(given.resolved).toEqual(['reference', 'reference', 'reference', 'reference']);
      expect(given.resolvedReasons).toEqual(['given', 'given', 'given', 'given']);
      expect(bytes(given.logLikelihood).equals(bytes(reference.logLikelihood))).toBe(true);
      expect([given.floorShare[1], given.floorShare[2]]).toEqual([1, NaN]);
    } finally {
      model.dispose();
    }
  });

  it("takes compensated under auto where the executor fuses it, and only there, with that reason", async () => {
    const fusing = { ...recordingSource(), fusedLikelihood: (nEnc: number) => nEnc !== 25 };
    const plan = await planNonlocal(fusing, dataset, 'auto', { blockSize: 4, calibration: CALIBRATION });
    expect(plan.electrodes[0]!.choice.strategy).toBe('compensated');
    expect(plan.electrodes[0]!.choice.reason).toMatch(/fused likelihood kernel/);
    // electrode 3 is a shape the executor does not fuse: the cost model's comparison decides it
    expect(plan.electrodes[3]!.choice.reason).not.toMatch(/fused/);
    // a strategy named outright is never replaced
    const named = await planNonlocal(fusing, dataset, 'series', { blockSize: 4 });
    expect(named.electrodes.map((p) => p.choice.strategy)).toEqual(['series', 'series', 'series', 'series']);
    // the in-thread executor on wasm has no fused likelihood
    const model = await fitEncodingModel(dataset);
    try {
      const onWasm = await planNonlocal(inThreadExecutor(model), dataset, 'auto', { blockSize: 4 });
      expect(onWasm.electrodes.some((p) => /fused/.test(p.choice.reason ?? ''))).toBe(false);
    } finally {
      model.dispose();
    }
  });
});
