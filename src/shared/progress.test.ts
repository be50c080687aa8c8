import { describe, expect, it } from 'vitest';
import { formatWallTime, progressOf, readProgress, timeLeftText } from './progress';

const steps = (done: number, total = 20) => ({ done, total, unit: 'steps' });

describe('a run\'s progress', () => {
  it('is the share of the run\'s time where the time left is known, whatever its steps weigh', () => {
    // 2.1 min into a run with 4 min 52 s left, 30 of its 35 steps done: the steps would say 86 %
    const p = progressOf('logsumexp · repeat 13', 126_000, 292_000, steps(30, 35));
    expect(p).toMatchObject({ basis: 'time', etaMs: 292_000, count: { done: 30, total: 35 } });
    expect(p.fraction).toBeCloseTo(126 / 418);
    expect(readProgress(p)).toMatchObject({ percent: 30.1, share: '30 %', etaMs: 292_000 });
  });

  it('counts its steps where no time can be told yet, and says so instead of a percentage', () => {
    const p = progressOf('reference · cold', 800, undefined, steps(2.5));
    expect(p).toMatchObject({ basis: 'count', fraction: 0.125 });
    expect(p.etaMs).toBeUndefined();
    expect(readProgress(p)).toEqual({ fill: 0.125, percent: null, share: '2 of 20 steps', etaMs: undefined });
  });

  it('waits rather than stepping back a little when the time left is estimated again, and keeps the last estimate where a step has none', () => {
    const first = progressOf('a', 10_000, 10_000, steps(5));
    // a slightly slower step: 11 s of 23 (47.8 %) is a little short of the half shown, the bar waits
    const slower = progressOf('a', 11_000, 12_000, steps(6), first);
    expect(slower.fraction).toBe(0.5);
    expect(slower.etaMs).toBe(12_000);
    // a step whose time is not known: the last estimate, counted down, not a return to counting
    const unknown = progressOf('b', 12_000, undefined, steps(7), slower);
    expect(unknown).toMatchObject({ basis: 'time', etaMs: 11_000 });
    expect(unknown.fraction).toBeCloseTo(12 / 23);
    // far slower than thought: the bar follows the time, or it would no longer read as time
    const far = progressOf('c', 13_000, 60_000, steps(8), unknown);
    expect(far.fraction).toBeCloseTo(13 / 73);
  });

  it('stays short of the whole while steps remain, and reads progress saved before its basis was said as a share', () => {
    expect(progressOf('x', 10_000, 0, steps(19)).fraction).toBe(0.999);
    expect(progressOf('x', 10_000, 0, steps(20)).fraction).toBe(1);
    expect(readProgress(progressOf('x', 10_000, 0, steps(19))).share).toBe('99 %');
    expect(readProgress({ fraction: 0.456, label: 'old', elapsedMs: 1 })).toMatchObject({ percent: 45.6, share: '45 %' });
  });

  it('words wall times and the time left the same on the terminal and in the app', () => {
    expect(formatWallTime(300)).toBe('less than a second');
    expect(formatWallTime(51_400)).toBe('51 s');
    expect(formatWallTime(292_000)).toBe('4 min 52 s');
    expect(formatWallTime(65_000)).toBe('1 min 05 s');
    expect(formatWallTime(7_500_000)).toBe('2 h 05 min');
    expect(timeLeftText(51_000)).toBe('about 51 s left');
    expect(timeLeftText(200)).toBe('less than a second left');
    expect(timeLeftText(undefined)).toBe('');
  });
});
