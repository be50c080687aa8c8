import { describe, expect, it } from 'vitest';
import type { TraceRecord } from './events';
import { counterDeltasOf, counterSeries, CounterSeriesBuilder } from './counterSeries';

const c = (ts: number, v: number, proc: 'engine' | 'service' = 'engine'): TraceRecord => ({ ph: 'C', proc, name: 'tensors', ts, args: { MB: v } });

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

describe('the live page\'s series, from the points notices bring', () => {
  const fed = (builder: CounterSeriesBuilder, records: TraceRecord[]) => {
    for (const d of counterDeltasOf(records)) builder.addDelta(d);
  };

  it('keeps one series per process, name and key, ordered by time', () => {
    const builder = new CounterSeriesBuilder();
    expect(counterDeltasOf([{ ph: 'X', proc: 'engine', tid: 1, name: 's', cat: 'c', ts: 0, dur: 50 }])).toEqual([]);
    fed(builder, [c(10, 1), c(30, 3), c(20, 2, 'service')]);
    fed(builder, [c(20, 2)]);
    const s = builder.withProcess();
    expect(s).toHaveLength(2);
    expect(s.find((x) => x.proc === 'engine')!.points).toEqual([[10, 1], [20, 2], [30, 3]]);
    expect(builder.withProcess()).not.toBe(s);
  });

  it('thins a long series, keeping peaks', () => {
    const builder = new CounterSeriesBuilder(8);
    const values = [1, 9, 2, 3, 8, 1, 1, 1, 5];
    fed(builder, values.map((v, i) => c(i, v)));
    const pts = builder.withProcess()[0]!.points;
    expect(pts.length).toBeLessThanOrEqual(8);
    expect(Math.max(...pts.map((p) => p[1]))).toBe(9);
    expect(pts.some((p) => p[1] === 8)).toBe(true);
  });

  it('draws what the service answers from the same records, however long the run', () => {
    const records: TraceRecord[] = [];
    for (let i = 0; i < 12_000; i++) records.push(c(i, (i * 7919) % 1000), { ph: 'C', proc: 'service', name: 'engine memory (MB)', ts: i + 0.5, args: { rss: i % 313 } });
    const service = new CounterSeriesBuilder();
    const page = new CounterSeriesBuilder();
    for (let from = 0; from < records.length; from += 137) {
      const batch = records.slice(from, from + 137);
      for (const r of batch) service.add(r);
      fed(page, batch);
    }
    expect(page.build()).toEqual(service.build());
    expect(page.withProcess().every((s) => s.points.length <= 4_000)).toBe(true);
  });
});
