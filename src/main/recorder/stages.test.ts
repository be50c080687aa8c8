import { describe, it, expect } from 'vitest';
import type { SpanRecord } from '../../shared/events';
import { stageTimes } from './stages';

const span = (name: string, ts: number, dur: number, tid = 1, proc: SpanRecord['proc'] = 'engine', args?: Record<string, unknown>): SpanRecord =>
  ({ ph: 'X', proc, tid, name, cat: 'engine', ts, dur, ...(args ? { args } : {}) });

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
});
