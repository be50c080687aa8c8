import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { counterSeries } from './counterSeries';

describe('counterSeries', () => {
  it('splits counters into one series per key, sorted by time', () => {
    const recs: TraceRecord[] = [
      { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 2, args: { rss: 20, heapUsed: 5 } },
      { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 1, args: { rss: 10, heapUsed: 4 } },
      { ph: 'X', proc: 'engine', tid: 1, name: 'run', cat: 'e', ts: 0, dur: 3 },
    ];
    expect(counterSeries(recs)).toEqual([
      { name: 'memory (MB)', key: 'rss', points: [[1, 10], [2, 20]] },
      { name: 'memory (MB)', key: 'heapUsed', points: [[1, 4], [2, 5]] },
    ]);
  });

  it('thins long series but keeps the peak', () => {
    const recs: TraceRecord[] = [];
    for (let i = 0; i < 10_000; i++) {
      recs.push({ ph: 'C', proc: 'engine', name: 'engine memory (MB)', ts: i, args: { rss: i === 7777 ? 999 : 100 + (i % 7) } });
    }
    const [s] = counterSeries(recs, 400);
    expect(s!.points.length).toBeLessThanOrEqual(400);
    expect(Math.max(...s!.points.map((p) => p[1]))).toBe(999);
    expect(s!.points.find((p) => p[1] === 999)![0]).toBe(7777);
  });
});
