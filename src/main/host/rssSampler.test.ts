import { describe, expect, it } from 'vitest';
import { startRssSampler } from './rssSampler';

/** a sampler whose samples are pushed by hand: the timer is stopped at once */
function samplerWith(samples: [number, number][]) {
  const s = startRssSampler({ pid: 1, readRssBytes: () => null, nowUs: () => 0, onSample: () => undefined, intervalMs: 1_000_000 });
  s.stop();
  for (const [tsUs, rssBytes] of samples) (s.samples as { tsUs: number; rssBytes: number }[]).push({ tsUs, rssBytes });
  return s;
}

describe('peakBetween', () => {
  it('takes the highest sample inside the window', () => {
    const s = samplerWith([[0, 10], [50, 30], [100, 20], [150, 90]]);
    expect(s.peakBetween(40, 120)).toBe(30);
  });

  it('falls back to the first sample after a window too short to hold one', () => {
    const s = samplerWith([[0, 10], [50, 30], [100, 20]]);
    expect(s.peakBetween(60, 90)).toBe(20);
  });

  it('uses the last sample before when none comes after, and nothing without samples', () => {
    expect(samplerWith([[0, 10], [50, 30]]).peakBetween(60, 90)).toBe(30);
    expect(samplerWith([]).peakBetween(0, 10)).toBeUndefined();
  });
});
