import { describe, expect, it } from 'vitest';
import { summarizeDataset } from '../../../shared/dataset';
import { makePreset } from './presets';

describe('summarizeDataset', () => {
  it('counts the decoding spikes on the time grid, the ones a decode computes terms for', () => {
    const d = makePreset('tiny', { seed: 3 });
    const whole = summarizeDataset(d);
    const all = d.electrodes.reduce((n, e) => n + e.decodingSpikeTimes.length, 0);
    expect(whole.nDecodingSpikes).toBeLessThanOrEqual(all);
    // decode only the grid's second half: the spikes before it still sit in the file
    const half = Math.floor(d.time.length / 2);
    const tail = { ...d, time: d.time.subarray(half) };
    const [lo, hi] = [tail.time[0]!, tail.time[tail.time.length - 1]!];
    const summary = summarizeDataset(tail);
    d.electrodes.forEach((e, i) => {
      const want = Array.from(e.decodingSpikeTimes).filter((u) => u >= lo && u <= hi).length;
      expect(summary.electrodes[i]!.nDecodingSpikes, e.name).toBe(want);
    });
    expect(summary.nDecodingSpikes).toBeGreaterThan(0);
    expect(summary.nDecodingSpikes).toBeLessThan(whole.nDecodingSpikes);
    expect(summarizeDataset({ ...d, time: new Float64Array(0) }).nDecodingSpikes).toBe(0);
  });
});
