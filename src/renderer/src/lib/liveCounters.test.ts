import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { CounterAccumulator, halvePoints } from './liveCounters';

const c = (ts: number, v: number, proc: 'engine' | 'service' = 'engine'): TraceRecord => ({ ph: 'C', proc, name: 'tensors', ts, args: { MB: v } });

describe('CounterAccumulator', () => {
  it('keeps one series per process, name and key, ordered by time', () => {
    const acc = new CounterAccumulator();
    expect(acc.add([{ ph: 'X', proc: 'engine', tid: 1, name: 's', cat: 'c', ts: 0, dur: 50 }])).toBe(false);
    expect(acc.add([c(10, 1), c(30, 3), c(20, 2, 'service')])).toBe(true);
    acc.add([c(20, 2)]);
    const s = acc.series();
    expect(s).toHaveLength(2);
    expect(s.find((x) => x.proc === 'engine')!.points).toEqual([[10, 1], [20, 2], [30, 3]]);
    expect(acc.latestUs).toBe(50);
    expect(acc.series()).not.toBe(s);
  });

  it('thins a long series, keeping peaks', () => {
    const acc = new CounterAccumulator(8);
    const values = [1, 9, 2, 3, 8, 1, 1, 1, 5];
    acc.add(values.map((v, i) => c(i, v)));
    const pts = acc.series()[0]!.points;
    expect(pts.length).toBeLessThanOrEqual(8);
    expect(Math.max(...pts.map((p) => p[1]))).toBe(9);
    expect(pts.some((p) => p[1] === 8)).toBe(true);
  });

  it('halvePoints keeps the larger of each pair', () => {
    const pts: [number, number][] = [[0, 1], [1, 5], [2, 4], [3, 2], [4, 7]];
    halvePoints(pts);
    expect(pts).toEqual([[1, 5], [2, 4], [4, 7]]);
  });
});
