/**
 * The local likelihood on an input large enough that its occupancy and ground densities are
 * tabulated (positionDensity/), against the float64 oracle that evaluates every pair.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fitEncodingModel, initBackend, predictLocal } from '../index';
import type { EngineProbe } from '../types';
import { maxAbsDiff, smallDataset } from '../testing/builders';
import { oracle } from '../testing/oracle';

beforeAll(async () => {
  await initBackend('wasm');
});

function recordingProbe(spans: { name: string; args: Record<string, unknown> }[]): EngineProbe {
  return {
    span: async (name, fn, args = {}) => {
      const value = await fn();
      spans.push({ name, args });
      return value;
    },
    counter: () => undefined,
    instant: () => undefined,
    progress: () => undefined,
  };
}

describe('predictLocal with tabulated position densities', () => {
  it('matches the pair-by-pair oracle, tabulating every point inside the track and windowing the joint KDE', async () => {
    const d = smallDataset({
      seed: 3, nPos: 3000, nTime: 1500, positionStd: 3,
      electrodes: [{ nEnc: 2200, nDec: 200, nFeatures: 4 }, { nEnc: 2100, nDec: 150, nFeatures: 2 }],
    });
    const model = await fitEncodingModel(d);
    const spans: { name: string; args: Record<string, unknown> }[] = [];
    try {
      const local = await predictLocal(model, d, recordingProbe(spans));
      expect(maxAbsDiff(local, oracle(d).local)).toBeLessThan(1e-5);
    } finally {
      model.dispose();
    }
    const densities = spans.filter((s) => s.name === 'occupancy at positions' || s.name === 'ground at positions');
    expect(densities).toHaveLength(3);
    for (const s of densities) expect(s.args.exactPoints).toBe(0);
    // the joint KDE took windows of the encoding spikes near each spike, not every pair
    const joints = spans.filter((s) => s.name === 'joint KDE at spikes');
    expect(joints).toHaveLength(2);
    for (const s of joints) expect(s.args.pairs as number).toBeLessThan((s.args.spikes as number) * (s.args.encoding as number));
  }, 120_000);
});
