/**
 * The strategies against the float64 oracle and each other on random inputs of several shapes:
 * mark dimensions on both sides of the compensated threshold (8), wide marks, and block, chunk
 * and tile sizes that do not divide the problem.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../shared/config';
import { CancelledError, engineMemory, fitEncodingModel, initBackend, NULL_PROBE, predictNonlocal, resolveAuto } from './index';
import { countNotClose, smallDataset } from './testing/builders';
import { oracle } from './testing/oracle';

beforeAll(async () => {
  await initBackend('wasm');
});

const SHAPES = [
  { name: 'D=1', features: 1, markScale: 30, waveformStd: 24 },
  { name: 'D=3, wide marks', features: 3, markScale: 120, waveformStd: 24 },
  { name: 'D=9 (above the compensated threshold)', features: 9, markScale: 8, waveformStd: 6 },
];
const TILINGS = [
  { blockSize: 3, encTileSize: 5, posTileSize: 7 },
  { blockSize: 100, encTileSize: 1000, posTileSize: 1000 },
];

describe('strategies agree with the float64 oracle', () => {
  for (const shape of SHAPES) {
    for (const tiling of TILINGS) {
      it(`${shape.name}, B=${tiling.blockSize} C=${tiling.encTileSize} Tp=${tiling.posTileSize}`, async () => {
        const d = smallDataset({
          seed: shape.features * 7 + tiling.blockSize,
          electrodes: [
            { nEnc: 37, nDec: 11, nFeatures: shape.features, markScale: shape.markScale },
            { nEnc: 19, nDec: 14, nFeatures: shape.features, markScale: shape.markScale },
          ],
          waveformStd: shape.waveformStd,
        });
        const o = oracle(d);
        const model = await fitEncodingModel(d);
        try {
          for (const s of [...STRATEGIES, 'auto'] as const) {
            const r = await predictNonlocal(model, d, s, tiling);
            expect([s, countNotClose(r.logLikelihood, o.nonlocal)]).toEqual([s, 0]);
          }
        } finally {
          model.dispose();
        }
      });
    }
  }
});

describe('auto', () => {
  it('follows the spec dispatch: compensated for D ≤ 8, logsumexp above, streaming when memory is short', () => {
    const sizes = { nEnc: 200, nDec: 100, nBins: 500, positionDims: 1 };
    expect(resolveAuto({ ...sizes, nFeatures: 4 }, { blockSize: 100 }).strategy).toBe('compensated');
    expect(resolveAuto({ ...sizes, nFeatures: 9 }, { blockSize: 100 }).strategy).toBe('logsumexp');
    expect(resolveAuto({ ...sizes, nFeatures: 9 }, { blockSize: 100, memoryBudgetBytes: 8e6 }).strategy).toBe('logsumexp-tiled');
    expect(resolveAuto({ ...sizes, nFeatures: 4 }, { blockSize: 100, memoryBudgetBytes: 2e5 }).strategy).toBe('streaming');
  });

  it('reports what each electrode ran', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 20, nDec: 5, nFeatures: 2 }, { nEnc: 20, nDec: 5, nFeatures: 9 }] });
    const model = await fitEncodingModel(d);
    const r = await predictNonlocal(model, d, 'auto', { blockSize: 4 });
    model.dispose();
    expect(r.resolved).toEqual(['compensated', 'logsumexp']);
  });
});

describe('tensor hygiene', () => {
  it('fit + predict under every strategy leaves the tensor count where it was', async () => {
    const d = smallDataset();
    const before = engineMemory().numTensors;
    const model = await fitEncodingModel(d);
    for (const s of STRATEGIES) await predictNonlocal(model, d, s, { blockSize: 4, encTileSize: 6, posTileSize: 5 });
    model.dispose();
    expect(engineMemory().numTensors).toBe(before);
  });

  it('a cancelled predict throws CancelledError and leaks nothing', async () => {
    const d = smallDataset();
    const before = engineMemory().numTensors;
    const model = await fitEncodingModel(d);
    for (const s of STRATEGIES) {
      let blocks = 0;
      const probe = { ...NULL_PROBE, span: async <T>(name: string, fn: () => Promise<T> | T) => {
        if (name === 'scatter') blocks++;
        return fn();
      }, cancelled: () => blocks >= 2 };
      await expect(predictNonlocal(model, d, s, { blockSize: 4, encTileSize: 6 }, probe)).rejects.toBeInstanceOf(CancelledError);
    }
    model.dispose();
    expect(engineMemory().numTensors).toBe(before);
  });
});
