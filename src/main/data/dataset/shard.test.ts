import { describe, expect, it } from 'vitest';
import type { ShardSplit } from '../../../shared/config';
import { isAppError } from '../../../shared/errors';
import { makePreset } from '../presets';
import { electrodeSpikes, shardOf, splitElectrodes } from './shard';

/** a small deterministic stream of spike counts, some repeated and some zero */
function counts(n: number, seed: number): number[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return a % 7 === 0 ? 0 : (a % 50) * 10;
  });
}

function expectPartition(shards: number[][], n: number): void {
  const all = shards.flat().sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: n }, (_, e) => e));
}

describe('splitElectrodes', () => {
  it('round-robin deals electrodes index, index+count, …', () => {
    expect(splitElectrodes(new Array(8).fill(1), 3, 'round-robin')).toEqual([[0, 3, 6], [1, 4, 7], [2, 5]]);
  });

  for (const by of ['round-robin', 'spikes'] as ShardSplit[]) {
    it(`${by}: every electrode in exactly one shard, for any count`, () => {
      for (const n of [1, 2, 5, 16, 39]) {
        for (let count = 1; count <= n + 2; count++) expectPartition(splitElectrodes(counts(n, n * 31 + count), count, by), n);
      }
    });

    it(`${by}: the same split every time, whatever order the call sees`, () => {
      const spikes = counts(39, 7);
      const first = splitElectrodes(spikes, 5, by);
      for (let i = 0; i < 3; i++) expect(splitElectrodes([...spikes], 5, by)).toEqual(first);
    });
  }

  it('spikes: largest first into the lightest shard', () => {
    const spikes = [900, 100, 500, 400, 300, 300, 200, 50];
    const shards = splitElectrodes(spikes, 3, 'spikes');
    // 900 | 500 | 400; 300 → 700, 300 → 800, 200 → 900, 100 → 900; 50 → all at 900, the shard with one electrode
    expect(shards).toEqual([[0, 7], [1, 2, 5], [3, 4, 6]]);
    const loads = shards.map((s) => s.reduce((t, e) => t + spikes[e]!, 0));
    expect(loads).toEqual([950, 900, 900]);
  });

  it('spikes: balances far better than round-robin when the big electrodes line up', () => {
    // every third electrode is heavy: round-robin puts all of them in shard 0
    const spikes = Array.from({ length: 30 }, (_, e) => (e % 3 === 0 ? 1000 : 10));
    const spread = (by: ShardSplit) => {
      const loads = splitElectrodes(spikes, 3, by).map((s) => s.reduce((t, e) => t + spikes[e]!, 0));
      return Math.max(...loads) - Math.min(...loads);
    };
    expect(spread('round-robin')).toBe(10_000 - 100);
    expect(spread('spikes')).toBeLessThanOrEqual(1000);
  });

  it('spikes: ties go to the electrode first in order and to the lower shard; empty electrodes spread over empty shards', () => {
    expect(splitElectrodes([5, 5, 5, 5], 2, 'spikes')).toEqual([[0, 2], [1, 3]]);
    expect(splitElectrodes([0, 0, 0], 3, 'spikes')).toEqual([[0], [1], [2]]);
  });
});

describe('shardOf', () => {
  const dataset = makePreset('small', { seed: 3 });

  it('keeps the shard\'s electrodes in dataset order, the grid and positions whole, and says which', () => {
    const { dataset: part, info } = shardOf(dataset, { index: 1, count: 3, by: 'round-robin' });
    expect(info).toEqual({ index: 1, count: 3, by: 'round-robin', electrodes: ['e1', 'e4', 'e7'] });
    expect(part.electrodes.map((e) => e.name)).toEqual(['e1', 'e4', 'e7']);
    expect(part.electrodes[0]!.encodingSpikeTimes).toBe(dataset.electrodes[1]!.encodingSpikeTimes);
    expect(part.placeBinCenters).toBe(dataset.placeBinCenters);
    expect(part.time).toBe(dataset.time);
    expect(part.notes.at(-1)).toBe('shard 1/3 (round-robin): 3 of 8 electrodes');
    expect(dataset.electrodes).toHaveLength(8);
  });

  it('spikes: the shards of a dataset cover it exactly once', () => {
    const names = [0, 1, 2].flatMap((index) => shardOf(dataset, { index, count: 3, by: 'spikes' }).info.electrodes);
    expect(names.sort()).toEqual(dataset.electrodes.map((e) => e.name).sort());
    expect(electrodeSpikes(dataset)).toHaveLength(8);
  });

  it('leaves out expected outputs, which cover all electrodes', () => {
    const withExpected = { ...dataset, expected: { occupancy: new Float64Array(3) } };
    const { dataset: part } = shardOf(withExpected, { index: 0, count: 2, by: 'round-robin' });
    expect(part.expected).toBeUndefined();
    expect(part.notes.at(-1)).toMatch(/expected outputs .* not compared/);
  });

  it('refuses more shards than electrodes, naming the flag and the limit', () => {
    let error: unknown;
    try {
      shardOf(dataset, { index: 9, count: 10, by: 'round-robin' });
    } catch (e) {
      error = e;
    }
    expect(isAppError(error) && error.code).toBe('BAD_ARGUMENT');
    expect((error as Error).message).toMatch(/--shard 9\/10: the dataset has 8 electrodes.*at most 8 shards/);
  });
});
