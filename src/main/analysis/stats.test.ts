import { describe, expect, it } from 'vitest';
import { addTimings, compareTimings, mean, median, sampleStd, timingStats } from './stats';

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

describe('timingStats intervals and outliers', () => {
  it('carries the bootstrap interval of the median and the Tukey outliers of the warm samples', () => {
    const t = timingStats(500, [180, 176, 191, 183, 179, 185, 178, 182, 240, 181]);
    expect(t.ci95![0]).toBeLessThanOrEqual(t.medianMs);
    expect(t.ci95![1]).toBeGreaterThanOrEqual(t.medianMs);
    expect(t.ci95![1] - t.ci95![0]).toBeLessThan(15);
    expect(t.outliers).toEqual([8]);
    expect(timingStats(500, [180, 176, 191, 183, 179, 185, 178, 182, 240, 181])).toEqual(t);
  });

  it('has no interval from fewer than two samples, and no outliers then', () => {
    expect(timingStats(9, [3]).ci95).toBeUndefined();
    expect(timingStats(9, []).outliers).toEqual([]);
  });
});

describe('compareTimings', () => {
  it('gives the ratio of medians with its interval and verdict', () => {
    const c = compareTimings(timingStats(0, [200, 210, 190, 205]), timingStats(0, [100, 105, 95, 102]), 'reference')!;
    expect(c.against).toBe('reference');
    expect(c.ratio).toBeCloseTo(202.5 / 101, 12);
    expect(c.ratioCi95[0]).toBeGreaterThan(1.5);
    expect(c.verdict).toBe('slower');
    expect(compareTimings(timingStats(0, [200]), timingStats(0, [100, 101]), 'reference')).toBeUndefined();
  });
});
