import { describe, expect, it } from 'vitest';
import { addTimings, mean, median, sampleStd, timingStats } from './stats';

describe('median, mean, sampleStd', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('uses n − 1 for the standard deviation and 0 below two values', () => {
    expect(sampleStd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(sampleStd([7])).toBe(0);
    expect(mean([1, 2, 6])).toBe(3);
  });
});

describe('timingStats', () => {
  it('summarizes the warm samples and keeps the first call apart', () => {
    const t = timingStats(10, [4, 1, 3, 2]);
    expect(t).toMatchObject({ firstMs: 10, medianMs: 2.5, meanMs: 2.5, minMs: 1, maxMs: 4, n: 4 });
    expect(t.stdMs).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(t.samplesMs).toEqual([4, 1, 3, 2]);
  });

  it('has std 0 for one sample', () => {
    expect(timingStats(9, [3])).toMatchObject({ medianMs: 3, stdMs: 0, n: 1 });
  });

  it('describes the first call with n = 0 when there is no warm sample', () => {
    const t = timingStats(12, []);
    expect(t).toMatchObject({ firstMs: 12, medianMs: 12, meanMs: 12, minMs: 12, maxMs: 12, stdMs: 0, n: 0 });
    expect(t.samplesMs).toEqual([]);
  });

  it('adds encode and decode call by call', () => {
    const t = addTimings(timingStats(5, [1, 2]), timingStats(7, [10, 20, 30]));
    expect(t.firstMs).toBe(12);
    expect(t.samplesMs).toEqual([11, 22]);
    expect(t.medianMs).toBe(16.5);
  });
});
