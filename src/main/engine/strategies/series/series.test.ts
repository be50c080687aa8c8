/**
 * The series strategy on data built to exercise both of its paths: compact marks (a fraction of σ
 * apart, where the truncated series covers every spike) with decoding spikes far outside them
 * (which must take the direct product), in the same blocks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../../shared/dataset';
import { fitEncodingModel, initBackend, predictNonlocal } from '../../index';
import { countNotClose, smallDataset } from '../../testing/builders';
import { coverageProbe } from '../../testing/coverageProbe';
import { oracle } from '../../testing/oracle';

beforeAll(async () => {
  await initBackend('wasm');
});

/** Marks N(0, 3), N(0, 1) and N(0, 0.2) against σ = 24, with every third decoding spike moved 150 (> 6σ) away on feature 0. */
function compactWithOutliers(): Dataset {
  const d = smallDataset({
    seed: 21,
    electrodes: [
      { nEnc: 120, nDec: 30, nFeatures: 2, markScale: 3 },
      { nEnc: 90, nDec: 25, nFeatures: 3, markScale: 1 },
      // above 8 features the outliers take the reference's direct product in the same blocks
      { nEnc: 300, nDec: 20, nFeatures: 9, markScale: 0.2 },
    ],
    waveformStd: 24,
  });
  for (const el of d.electrodes) {
    const f = el.decodingFeatures;
    for (let k = 0; k < el.decodingSpikeTimes.length; k += 3) f[k * el.nFeatures] = f[k * el.nFeatures]! + 150;
  }
  return d;
}

describe('series strategy', () => {
  it('covers the compact spikes with the series, sends the outliers to the direct product, and agrees with the oracle', async () => {
    const d = compactWithOutliers();
    const o = oracle(d);
    const model = await fitEncodingModel(d);
    try {
      for (const blockSize of [4, 100]) {
        const { probe, seen } = coverageProbe();
        const r = await predictNonlocal(model, d, 'series', { blockSize }, probe);
        expect(countNotClose(r.logLikelihood, o.nonlocal)).toBe(0);
        expect(seen).toHaveLength(3);
        for (const [e, c] of seen.entries()) {
          const outliers = Math.ceil(d.electrodes[e]!.decodingSpikeTimes.length / 3);
          expect(c.direct, `electrode ${e}`).toBe(outliers);
          expect(c.series, `electrode ${e}`).toBe(d.electrodes[e]!.decodingSpikeTimes.length - outliers);
          expect(c.order).toBeGreaterThan(0);
          // one-dimensional positions on wasm: compensated's interpolated form where the flush bound
          // allows it (interpolation.test.ts), which it does not at electrode 0's largest bias
          expect(c.directBy).toBe(['compensated', 'compensated, position interpolated', 'reference'][e]);
        }
      }
    } finally {
      model.dispose();
    }
  });

  it('agrees with the reference to float32 rounding where the series covers every spike', async () => {
    const d = smallDataset({ seed: 5, electrodes: [{ nEnc: 200, nDec: 40, nFeatures: 2, markScale: 1 }], waveformStd: 24 });
    const model = await fitEncodingModel(d);
    try {
      const { probe, seen } = coverageProbe();
      const series = await predictNonlocal(model, d, 'series', { blockSize: 16 }, probe);
      const reference = await predictNonlocal(model, d, 'reference', { blockSize: 16 });
      expect(seen[0]!.direct).toBe(0);
      expect(countNotClose(series.logLikelihood, reference.logLikelihood, 1e-6, 1e-5)).toBe(0);
    } finally {
      model.dispose();
    }
  });

  // no spike in reach above 8 features: the electrode is the reference, bit for bit (at 8 or fewer,
  // compensated's interpolated form, which interpolation.test.ts compares with compensated)
  for (const { features, seed, by } of [{ features: 9, seed: 9, by: 'reference' as const }]) {
    it(`is ${by} itself, bit for bit, where marks are spread over many σ and no spike is covered (D = ${features})`, async () => {
      const d = smallDataset({ seed, electrodes: [{ nEnc: 60, nDec: 20, nFeatures: features, markScale: 200 }], waveformStd: 24 });
      const model = await fitEncodingModel(d);
      try {
        const { probe, seen } = coverageProbe();
        const series = await predictNonlocal(model, d, 'series', { blockSize: 7 }, probe);
        const direct = await predictNonlocal(model, d, by, { blockSize: 7 });
        expect(seen[0]).toMatchObject({ series: 0, directBy: by });
        expect(Array.from(series.logLikelihood)).toEqual(Array.from(direct.logLikelihood));
      } finally {
        model.dispose();
      }
    });
  }

  it('gives the same result on a second call on the same model (the factor kept with it)', async () => {
    const d = compactWithOutliers();
    const model = await fitEncodingModel(d, undefined, { keepPositionKernelBytes: 1 << 24 });
    try {
      const first = await predictNonlocal(model, d, 'series', { blockSize: 8, positionKernelBudgetBytes: 1 << 24 });
      const second = await predictNonlocal(model, d, 'series', { blockSize: 8, positionKernelBudgetBytes: 1 << 24 });
      expect(Array.from(second.logLikelihood)).toEqual(Array.from(first.logLikelihood));
    } finally {
      model.dispose();
    }
  });

  it('a fit for series keeps the series factor, not the kernel, only where the plan covers the encoding marks', async () => {
    const d = smallDataset({
      seed: 12,
      electrodes: [
        { nEnc: 120, nDec: 10, nFeatures: 2, markScale: 1 },
        { nEnc: 120, nDec: 10, nFeatures: 4, markScale: 200 },
      ],
      waveformStd: 24,
    });
    const model = await fitEncodingModel(d, undefined, { keepPositionKernelBytes: 1 << 24, keepOnlyForSeries: true });
    const all = await fitEncodingModel(d, undefined, { keepPositionKernelBytes: 1 << 24 });
    const none = await fitEncodingModel(d);
    try {
      expect(model.electrodes.map((e) => [e.keptPositionKernel !== undefined, e.keptSeriesFactor !== undefined])).toEqual([[false, true], [false, false]]);
      expect(all.electrodes.map((e) => e.keptPositionKernel !== undefined)).toEqual([true, true]);
      const o = oracle(d);
      const kept = (await predictNonlocal(model, d, 'series', { blockSize: 4 })).logLikelihood;
      expect(countNotClose(kept, o.nonlocal)).toBe(0);
      // the factor the fit kept is the one a predict builds without it, bit for bit
      expect(kept).toEqual((await predictNonlocal(none, d, 'series', { blockSize: 4 })).logLikelihood);
    } finally {
      model.dispose();
      all.dispose();
      none.dispose();
    }
  });
});
