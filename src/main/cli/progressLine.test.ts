import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatProgress, ProgressLine } from './progressLine';

function sink(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  out.isTTY = isTTY;
  out.columns = 80;
  let text = '';
  out.on('data', (c) => (text += String(c)));
  return { out, text: () => text };
}

const p = (fraction: number) => ({ fraction, label: 'reference · repeat 1', elapsedMs: 2500, etaMs: 61_000 });

afterEach(() => {
  vi.useRealTimers();
});

describe('progress on stderr', () => {
  it('formats percent, label, time left and elapsed', () => {
    expect(formatProgress(p(0.456))).toBe('[ 45%] reference · repeat 1 · 1m01s left (3s elapsed)');
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
