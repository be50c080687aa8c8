import { describe, expect, it } from 'vitest';
import type { StoppingRule } from '../../shared/config';
import { judgeRepeats, stopReason } from './stopping';

const rule: StoppingRule = { relativeCi: 0.05, maxTimeS: 20, maxRepeats: 50 };
const steady = (n: number) => Array.from({ length: n }, (_, i) => 180 + (i % 3));
const noisy = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 100 : 200));

describe('stopReason', () => {
  it('takes the asked count without a rule', () => {
    expect(stopReason(3, undefined, { samplesMs: [1, 2], elapsedMs: 0 })).toBeUndefined();
    expect(stopReason(3, undefined, { samplesMs: [1, 2, 3], elapsedMs: 0 })).toBe('repeats');
  });

  it('never stops before the fewest repeats, even past the budget', () => {
    expect(stopReason(5, rule, { samplesMs: steady(4), elapsedMs: 60_000 })).toBeUndefined();
  });

  it('stops by precision once the interval is within ±5 %', () => {
    expect(stopReason(5, rule, { samplesMs: steady(5), elapsedMs: 900 })).toBe('precision');
  });

  it('goes on while the interval is wide and time is left', () => {
    expect(stopReason(5, rule, { samplesMs: noisy(6), elapsedMs: 1000 })).toBeUndefined();
  });

  it('stops by time when one more repeat would end past the budget', () => {
    // median 150 ms: at 19.8 s one more ends at 19.95 s (inside), at 19.9 s it would not
    expect(stopReason(5, rule, { samplesMs: noisy(20), elapsedMs: 19_800 })).toBeUndefined();
    expect(stopReason(5, rule, { samplesMs: noisy(20), elapsedMs: 19_900 })).toBe('time');
  });

  it('stops at the repeat cap', () => {
    expect(stopReason(5, rule, { samplesMs: noisy(49), elapsedMs: 1000 })).toBeUndefined();
    expect(stopReason(5, rule, { samplesMs: noisy(50), elapsedMs: 1000 })).toBe('max-repeats');
  });
});

describe('judgeRepeats', () => {
  it('reports the precision reached with the decision, and computes none without a rule', () => {
    const j = judgeRepeats(5, rule, { samplesMs: noisy(6), elapsedMs: 1000 });
    expect(j.stop).toBeUndefined();
    expect(j.halfWidth!).toBeGreaterThan(0.05);
    expect(judgeRepeats(3, undefined, { samplesMs: noisy(3), elapsedMs: 0 })).toEqual({ stop: 'repeats' });
  });
});
