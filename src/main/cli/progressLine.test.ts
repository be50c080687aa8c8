import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProgressInfo } from '../../shared/events';
import { formatWallTime, progressOf, readProgress, timeLeftText } from '../../shared/progress';
import { formatProgress, ProgressLine } from './progressLine';

function sink(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  out.isTTY = isTTY;
  out.columns = 80;
  let text = '';
  out.on('data', (c) => (text += String(c)));
  return { out, text: () => text };
}

const p = (fraction: number): ProgressInfo => ({ fraction, label: 'reference · repeat 1', elapsedMs: 2500, etaMs: 61_000, basis: 'time' });

afterEach(() => {
  vi.useRealTimers();
});

describe('progress on stderr', () => {
  it('formats percent, label, time left and elapsed', () => {
    expect(formatProgress(p(0.456))).toBe('[ 45 %] reference · repeat 1 · about 1 min 01 s left (3 s elapsed)');
  });

  it('says what it counts where no time can be told yet, and never a percentage then', () => {
    const counted = progressOf('reference · cold', 4200, undefined, { done: 3.5, total: 17, unit: 'steps' });
    expect(formatProgress(counted)).toBe('[3 of 17 steps] reference · cold (4 s elapsed)');
  });

  it('reads the same share and time left as the app\'s bar, from the one reading both use', () => {
    const timed = progressOf('logsumexp · repeat 13', 126_000, 292_000, { done: 30, total: 35, unit: 'steps' });
    const reading = readProgress(timed);
    // 2.1 min behind it, 4 min 52 s ahead: 30 % of its time, not 86 % of its steps
    expect(reading.share).toBe('30 %');
    expect(formatProgress(timed)).toBe(`[ 30 %] logsumexp · repeat 13 · ${timeLeftText(reading.etaMs)} (${formatWallTime(126_000)} elapsed)`);
    expect(formatProgress(timed)).toBe('[ 30 %] logsumexp · repeat 13 · about 4 min 52 s left (2 min 06 s elapsed)');
  });

  it('stays quiet for the first second, then rewrites one line on a terminal', () => {
    vi.useFakeTimers();
    const s = sink(true);
    const line = new ProgressLine(s.out);
    line.update(p(0.1));
    expect(s.text()).toBe('');
    vi.advanceTimersByTime(1100);
    line.update(p(0.2));
    line.update(p(0.3));
    line.done();
    expect(s.text().split('\r\x1b[K').filter(Boolean)).toHaveLength(2);
    expect(s.text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('prints a plain line every few seconds when not on a terminal', () => {
    vi.useFakeTimers();
    const s = sink(false);
    const line = new ProgressLine(s.out);
    vi.advanceTimersByTime(1100);
    line.update(p(0.2));
    line.update(p(0.3));
    vi.advanceTimersByTime(5000);
    line.update(p(0.9));
    expect(s.text().trim().split('\n')).toEqual([formatProgress(p(0.2)), formatProgress(p(0.9))]);
    expect(s.text()).not.toContain('\r');
  });
});
