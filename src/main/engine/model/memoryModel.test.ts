import { describe, expect, it } from 'vitest';
import type { StrategyName } from '../../../shared/config';
import { dataset } from '../../analysis/testData';
import { estimateDatasetPeak, estimatePeakBytes, type ProblemSizes, resolveNldDispatch } from './index';
import { MAX_WORKING_SET_BYTES } from './constants';

// the medium preset's typical electrode: E = 200, S = 100, P = 500, B = 100, T = 500
const medium: ProblemSizes = { nEnc: 200, nDec: 100, nBins: 500, nFeatures: 2, positionDims: 1, nTime: 500 };
const B = { blockSize: 100 };
const bytes = (s: StrategyName, sizes: ProblemSizes, o: object = {}): number =>
  estimatePeakBytes(s, sizes, { ...B, ...o }).deviceBytes;

describe('estimatePeakBytes at the medium sizes', () => {
  it('(a) reference: E·P + E·B + B·P', () => {
    expect(bytes('reference', medium)).toBe((200 * 500 + 200 * 100 + 100 * 500) * 4);
  });

  it('(b) logsumexp: B·E·P + E·P', () => {
    expect(bytes('logsumexp', medium)).toBe((100 * 200 * 500 + 200 * 500) * 4);
    expect(estimatePeakBytes('logsumexp', medium, B).formula).toBe(
      'B·E·P + E·P = 100·200·500 + 200·500 = 10100000 floats (float32)',
    );
  });

  it('(c) logsumexp-tiled: B·E·Tp + E·P', () => {
    expect(bytes('logsumexp-tiled', medium, { posTileSize: 100 })).toBe((100 * 200 * 100 + 200 * 500) * 4);
    // the engine's default tile is 256 bins
    expect(bytes('logsumexp-tiled', medium)).toBe((100 * 200 * 256 + 200 * 500) * 4);
  });

  it('(d) chunked: C·P + C·B + B·C·Tp + S·P (every block keeps its accumulator across chunks)', () => {
    expect(bytes('chunked', medium, { encTileSize: 50, posTileSize: 100 })).toBe(
      (50 * 500 + 50 * 100 + 100 * 50 * 100 + 100 * 500) * 4,
    );
    expect(bytes('chunked', { ...medium, nDec: 300 }, { encTileSize: 50, posTileSize: 100 })).toBe(
      (50 * 500 + 50 * 100 + 100 * 50 * 100 + 300 * 500) * 4,
    );
  });

  it('(e) compensated: as (a); (e′) with a chunk smaller than E: E·P + C·B + B·P (the factor is built once)', () => {
    expect(bytes('compensated', medium)).toBe((200 * 500 + 200 * 100 + 100 * 500) * 4);
    expect(bytes('compensated', medium, { encTileSize: 200 })).toBe((200 * 500 + 200 * 100 + 100 * 500) * 4);
    expect(bytes('compensated', medium, { encTileSize: 50 })).toBe((200 * 500 + 50 * 100 + 100 * 500) * 4);
  });

  it('(f) streaming: e′ terms at D ≤ 8, online-logsumexp terms above', () => {
    expect(bytes('streaming', medium, { encTileSize: 50 })).toBe((50 * 500 + 50 * 100 + 100 * 500) * 4);
    expect(bytes('streaming', { ...medium, nFeatures: 10 }, { encTileSize: 50, posTileSize: 100 })).toBe(
      (50 * 500 + 50 * 100 + 100 * 50 * 100 + 100 * 500) * 4,
    );
  });

  it('counts the T·P output in float64 on the host, not on the device', () => {
    const e = estimatePeakBytes('reference', medium, B);
    expect(e.hostBytes).toBe(8 * 500 * 500);
  });

  it('clips the block to the decoding spikes and the chunk to the encoding spikes', () => {
    expect(bytes('logsumexp', { ...medium, nDec: 30 })).toBe((30 * 200 * 500 + 200 * 500) * 4);
    expect(bytes('chunked', medium, { encTileSize: 10_000, posTileSize: 100 })).toBe(
      (200 * 500 + 200 * 100 + 100 * 200 * 100 + 100 * 500) * 4,
    );
  });

  it('gives a 216 M-float (B,E,P) temporary for a 1080-spike electrode on the realistic grid (spec §8.3)', () => {
    const realistic = { nEnc: 1080, nDec: 400, nBins: 2000, nFeatures: 2, positionDims: 1, nTime: 2000 };
    expect(bytes('logsumexp', realistic) / 4 - 1080 * 2000).toBe(216_000_000);
  });
});

describe('resolveNldDispatch', () => {
  it('takes compensated at D ≤ 8 when it fits the default 1 GiB', () => {
    const c = resolveNldDispatch(medium, B);
    expect(c.strategy).toBe('compensated');
    expect(c.encTileSize).toBeUndefined();
    expect(c.estimatedPeakBytes).toBe(bytes('compensated', medium));
    expect(c.reason).toMatch(/D = 2 ≤ 8/);
  });

  it('streams with the largest chunk that fits a small budget', () => {
    // 100 000 floats: B·P = 50 000 leaves room for C·(P + B) = 600·C → C = 83
    const c = resolveNldDispatch(medium, { ...B, memoryBudgetBytes: 400_000 });
    expect(c).toMatchObject({ strategy: 'streaming', encTileSize: 83 });
    expect(c.estimatedPeakBytes).toBeLessThanOrEqual(400_000);
    expect(bytes('streaming', medium, { encTileSize: 84 })).toBeGreaterThan(400_000);
  });

  it('honours a chunk the user asked for, as the spec dispatch does', () => {
    expect(resolveNldDispatch(medium, { ...B, encTileSize: 50 })).toMatchObject({ strategy: 'compensated', encTileSize: 50 });
    expect(resolveNldDispatch({ ...medium, nFeatures: 10 }, { ...B, encTileSize: 50 })).toMatchObject({
      strategy: 'chunked', encTileSize: 50,
    });
  });

  it('takes logsumexp above 8 features, tiles positions, then streams as the budget shrinks', () => {
    const high = { ...medium, nFeatures: 10 };
    expect(resolveNldDispatch(high, B).strategy).toBe('logsumexp');
    // 5 000 000 floats: E·P = 100 000 leaves B·E·Tp = 20 000·Tp → Tp = 245
    const tiled = resolveNldDispatch(high, { ...B, memoryBudgetBytes: 20_000_000 });
    expect(tiled).toMatchObject({ strategy: 'logsumexp-tiled', posTileSize: 245, estimatedPeakBytes: 20_000_000 });
    // 75 000 floats < E·P: streaming with a 100-bin tile, C·10 600 + 50 000 ≤ 75 000 → C = 2
    const streamed = resolveNldDispatch(high, { ...B, posTileSize: 100, memoryBudgetBytes: 300_000 });
    expect(streamed).toMatchObject({ strategy: 'streaming', encTileSize: 2, posTileSize: 100 });
    expect(streamed.estimatedPeakBytes).toBeLessThanOrEqual(300_000);
    expect(bytes('streaming', high, { encTileSize: 3, posTileSize: 100 })).toBeGreaterThan(300_000);
  });

  it('says so when even the smallest chunk does not fit', () => {
    const c = resolveNldDispatch({ ...medium, nFeatures: 10 }, { ...B, memoryBudgetBytes: 1000 });
    expect(c).toMatchObject({ strategy: 'streaming', encTileSize: 1 });
    expect(c.reason).toMatch(/lower the block size/);
  });

  it('falls back to logsumexp for an electrode without encoding spikes', () => {
    expect(resolveNldDispatch({ ...medium, nEnc: 0 }, B).strategy).toBe('logsumexp');
  });
});

describe('the working-set cap', () => {
  // an electrode of NLD's production shape: 88 250 encoding spikes on a 2-D grid of 3 177 bins
  const big: ProblemSizes = { nEnc: 88250, nDec: 300, nBins: 3177, nFeatures: 4, positionDims: 2, nTime: 1418 };

  it('keeps every chunk within 256 MiB however large the budget, so the wasm heap stays under 2 GiB', () => {
    for (const budget of [512 * 2 ** 20, 2 ** 30, 8 * 2 ** 30]) {
      const c = resolveNldDispatch(big, { blockSize: 100, memoryBudgetBytes: budget });
      expect(c.strategy).toBe('streaming');
      expect(c.estimatedPeakBytes).toBeLessThanOrEqual(MAX_WORKING_SET_BYTES);
      expect(c.encTileSize! * big.nBins * 4).toBeLessThanOrEqual(MAX_WORKING_SET_BYTES);
    }
  });

  it('still takes a smaller budget as it is', () => {
    const c = resolveNldDispatch(big, { blockSize: 100, memoryBudgetBytes: 64 * 2 ** 20 });
    expect(c.estimatedPeakBytes).toBeLessThanOrEqual(64 * 2 ** 20);
  });
});

describe('estimateDatasetPeak', () => {
  it('reports the largest electrode, resolving auto per electrode', () => {
    const d = dataset();
    d.electrodes[3] = { name: 'big', nFeatures: 2, nEncodingSpikes: 1000, nDecodingSpikes: 100 };
    const e = estimateDatasetPeak('logsumexp', d, B);
    expect(e).toMatchObject({ electrode: 'big', strategy: 'logsumexp', deviceBytes: (100 * 1000 * 500 + 1000 * 500) * 4 });
    expect(estimateDatasetPeak('auto', d, B)).toMatchObject({ electrode: 'big', strategy: 'compensated' });
  });
});
