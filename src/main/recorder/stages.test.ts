import { describe, it, expect } from 'vitest';
import type { SpanRecord } from '../../shared/events';
import { seededRandom } from '../analysis/bootstrap';
import { RunningStageTimes, stageTimes } from './stages';

const span = (name: string, ts: number, dur: number, tid = 1, proc: SpanRecord['proc'] = 'engine', args?: Record<string, unknown>): SpanRecord =>
  ({ ph: 'X', proc, tid, name, cat: 'engine', ts, dur, ...(args ? { args } : {}) });

/** the running table fed the spans in the order they close, as the recorder emits them */
function running(spans: readonly SpanRecord[]) {
  const table = new RunningStageTimes();
  for (const s of [...spans].sort((a, b) => a.ts + a.dur - (b.ts + b.dur))) table.add(s);
  return table.table();
}

describe('stageTimes', () => {
  it('computes calls, total and self time from nesting', () => {
    // decode [0,100] › electrode [10,60] › block [10,30], block [30,55]; electrode [60,95] › block [70,80]
    const spans = [
      span('block', 10, 20), span('block', 30, 25), span('electrode', 10, 50),
      span('block', 70, 10), span('electrode', 60, 35), span('decode', 0, 100),
    ];
    const byName = Object.fromEntries(stageTimes(spans).map((s) => [s.name, s]));
    expect(byName.decode).toEqual({ name: 'decode', calls: 1, totalMs: 0.1, selfMs: expect.closeTo(0.015, 12) });
    expect(byName.electrode).toMatchObject({ calls: 2, totalMs: expect.closeTo(0.085, 12), selfMs: expect.closeTo(0.03, 12) });
    expect(byName.block).toMatchObject({ calls: 3, totalMs: expect.closeTo(0.055, 12), selfMs: expect.closeTo(0.055, 12) });
    expect(stageTimes(spans).map((s) => s.name)).toEqual(['decode', 'electrode', 'block']);
  });

  it('counts the electrode spans as one stage and keeps each electrode\'s time from the index in their args', () => {
    const e = (index: number, ts: number, dur: number, tid = 1) => span('electrode', ts, dur, tid, 'engine', { electrodeIndex: index, electrode: `tet${index}` });
    const spans = [e(2, 0, 10), e(0, 10, 20), e(2, 30, 30, 2), span('block', 31, 5, 2, 'engine', { block: 0 }), span('decode', 0, 100)];
    for (const table of [stageTimes(spans), running(spans)]) {
      expect(table.filter((s) => s.name.startsWith('electrode')).map((s) => s.name)).toEqual(['electrode']);
      const electrode = table.find((s) => s.name === 'electrode')!;
      expect(electrode.calls).toBe(3);
      expect(electrode.byElectrode).toEqual([
        { electrode: 0, calls: 1, totalMs: expect.closeTo(0.02, 12) },
        { electrode: 2, calls: 2, totalMs: expect.closeTo(0.04, 12) },
      ]);
      expect(table.find((s) => s.name === 'decode')!.byElectrode).toBeUndefined();
    }
  });

  it('keeps lanes and processes apart', () => {
    // the service span overlaps the engine spans in time but is not their parent
    const spans = [span('run', 0, 100, 1, 'service'), span('encode', 10, 40), span('fit', 10, 40, 2)];
    const byName = Object.fromEntries(stageTimes(spans).map((s) => [s.name, s]));
    expect(byName.run!.selfMs).toBeCloseTo(0.1, 12);
    expect(byName.encode!.selfMs).toBeCloseTo(0.04, 12);
    expect(byName.fit!.selfMs).toBeCloseTo(0.04, 12);
  });

  it('charges a child that overhangs its parent only for the part inside', () => {
    const byName = Object.fromEntries(stageTimes([span('p', 0, 10), span('c', 5, 10)]).map((s) => [s.name, s]));
    expect(byName.p!.selfMs).toBeCloseTo(0.005, 12);
  });

  it('adds up the work spans counted, across lanes, and gives none to a stage where a span counted none or a bad figure', () => {
    const w = (gemmFlops: number) => ({ gemmFlops, otherFlops: 1, exps: 2, logs: 3, bytes: 4, streamBytes: 5 });
    const spans = [
      span('reduce', 0, 10, 1, 'engine', { work: w(100) }), span('reduce', 10, 10, 2, 'engine', { work: w(50) }),
      span('mark-kernel', 20, 10, 1, 'engine', { work: w(7) }), span('mark-kernel', 30, 10, 1, 'engine', { work: { ...w(7), exps: 'many' } }),
      span('series-factor', 40, 10, 1, 'engine', { work: w(9) }), span('series-factor', 50, 10, 2),
      span('scatter', 60, 1, 1, 'engine', { work: w(-1) }), span('ground-process', 70, 10),
    ];
    const byName = Object.fromEntries(stageTimes(spans).map((s) => [s.name, s]));
    expect(byName.reduce).toMatchObject({ calls: 2, work: { gemmFlops: 150, otherFlops: 2, exps: 4, logs: 6, bytes: 8, streamBytes: 10 } });
    for (const partly of ['mark-kernel', 'series-factor', 'scatter', 'ground-process']) expect(byName[partly]!.work).toBeUndefined();
    expect(byName['series-factor']!.calls).toBe(2);
  });

  it("adds up the device's counts its spans carried, and gives none to a stage where a span carried none", () => {
    const g = (dispatches: number, pipelines = 0) => ({ gpu: { dispatches, pipelines, readBytes: 40 } });
    const spans = [
      span('reduce', 0, 10, 1, 'engine', g(2, 1)), span('reduce', 10, 10, 1, 'engine', g(2)),
      span('position-kernel', 20, 10, 1, 'engine', g(5)), span('position-kernel', 30, 10),
      span('mark-kernel', 40, 10, 1, 'engine', { gpu: { dispatches: 1.5, pipelines: 0, readBytes: 0 } }),
    ];
    const byName = Object.fromEntries(stageTimes(spans).map((s) => [s.name, s]));
    expect(byName.reduce!.gpu).toEqual({ dispatches: 4, pipelines: 1, readBytes: 80 });
    expect(byName['position-kernel']!.gpu).toBeUndefined();
    expect(byName['mark-kernel']!.gpu).toBeUndefined();
    expect(running(spans).find((s) => s.name === 'reduce')!.gpu).toEqual({ dispatches: 4, pipelines: 1, readBytes: 80 });
  });
});

/** Nested spans on one lane in [start, end] (µs), in the order they close: children first. */
function nestedSpans(rand: () => number, tid: number, start: number, end: number, depth: number): SpanRecord[] {
  const names = ['decode', 'electrode', 'block', 'reduce', 'mark-kernel'];
  const out: SpanRecord[] = [];
  let at = start;
  while (at < end - 2 && rand() < 0.8) {
    const length = Math.min(end - at, 1 + Math.floor(rand() * (end - start) * 0.6));
    const s0 = at + Math.floor(rand() * 2);
    const s1 = Math.min(end, s0 + length);
    if (s1 <= s0) break;
    if (depth < 4) out.push(...nestedSpans(rand, tid, s0, s1, depth + 1));
    const work = rand() < 0.7 ? { work: { gemmFlops: Math.floor(rand() * 100), otherFlops: 1, exps: 2, logs: 3, bytes: 4, streamBytes: 5 } } : undefined;
    out.push(span(names[Math.min(depth + Math.floor(rand() * 2), names.length - 1)]!, s0 + 0.25, s1 - s0 - 0.5, tid, 'engine', work));
    at = s1;
  }
  return out;
}

describe('RunningStageTimes', () => {
  it('gives stageTimes\' table span by span, whatever the order the lanes interleave in', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = seededRandom(seed);
      const lanes = [1, 2, 3].map((tid) => nestedSpans(rand, tid, 0, 1000, 0));
      const all = lanes.flat();
      const running = new RunningStageTimes();
      // lanes interleaved at random, each lane's spans still in the order they closed
      const next = lanes.map(() => 0);
      while (next.some((k, i) => k < lanes[i]!.length)) {
        const i = Math.floor(rand() * lanes.length);
        if (next[i]! < lanes[i]!.length) running.add(lanes[i]![next[i]!++]!);
      }
      const expected = stageTimes(all);
      const got = running.table();
      expect(got.map((s) => s.name), `seed ${seed}`).toEqual(expected.map((s) => s.name));
      got.forEach((g, k) => {
        const e = expected[k]!;
        expect(g.calls, `seed ${seed} ${g.name}`).toBe(e.calls);
        expect(g.totalMs).toBeCloseTo(e.totalMs, 9);
        expect(g.selfMs, `seed ${seed} ${g.name}`).toBeCloseTo(e.selfMs, 9);
        expect(g.work).toEqual(e.work);
      });
    }
  });

  it('keeps a stage\'s count only while every span of it counted', () => {
    const w = { gemmFlops: 1, otherFlops: 1, exps: 1, logs: 1, bytes: 1, streamBytes: 1 };
    const running = new RunningStageTimes();
    running.add(span('reduce', 0, 10, 1, 'engine', { work: w }));
    expect(running.table()[0]!.work).toEqual(w);
    running.add(span('reduce', 20, 10));
    expect(running.table()[0]!.work).toBeUndefined();
    expect(running.table()[0]!.calls).toBe(2);
  });
});
