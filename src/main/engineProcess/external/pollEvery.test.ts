import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollEvery } from './pollEvery';

describe('pollEvery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('samples at once and then each interval, skipping ticks a slow sample overlaps, and delivers nothing after stop', async () => {
    const releases: Array<(v: number | null) => void> = [];
    const sample = vi.fn(() => new Promise<number | null>((resolve) => releases.push(resolve)));
    const delivered: number[] = [];
    const stop = pollEvery(100, sample, (v) => delivered.push(v));
    expect(sample).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(250); // the first sample is still pending: its two ticks are skipped
    expect(sample).toHaveBeenCalledTimes(1);
    releases[0]!(7);
    await vi.advanceTimersByTimeAsync(100);
    expect(delivered).toEqual([7]);
    expect(sample).toHaveBeenCalledTimes(2);
    releases[1]!(null); // a sample that found nothing delivers nothing
    await vi.advanceTimersByTimeAsync(100);
    expect(delivered).toEqual([7]);
    stop();
    releases[2]!(9); // answered after stop: dropped
    await vi.advanceTimersByTimeAsync(500);
    expect(delivered).toEqual([7]);
    expect(sample).toHaveBeenCalledTimes(3);
  });

  it('treats a sample that throws as one that found nothing', async () => {
    const delivered: number[] = [];
    const stop = pollEvery(100, () => Promise.reject(new Error('nvidia-smi vanished')), (v: number) => delivered.push(v));
    await vi.advanceTimersByTimeAsync(300);
    stop();
    expect(delivered).toEqual([]);
  });
});
