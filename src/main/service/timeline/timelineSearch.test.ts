import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { buildTimelineIndex } from './timelineIndex';
import { findSpan, summarizeArea } from './timelineSearch';

/** run (0..n·10 µs) › n blocks of 8 µs, each with a 3 µs position-kernel and a 3 µs mark-kernel */
function nested(n: number, tid = 1): TraceRecord[] {
  const recs: TraceRecord[] = [
    { ph: 'M', proc: 'engine', tid, name: 'thread_name', args: { name: `thread ${tid}` } },
    { ph: 'X', proc: 'engine', tid, name: 'run', cat: 'engine', ts: 0, dur: n * 10 },
  ];
  for (let i = 0; i < n; i++) {
    const t = i * 10;
    recs.push({ ph: 'X', proc: 'engine', tid, name: 'block', cat: 'engine', ts: t + 1, dur: 8, args: { i } });
    recs.push({ ph: 'X', proc: 'engine', tid, name: 'position-kernel', cat: 'engine', ts: t + 1.5, dur: 3 });
    recs.push({ ph: 'X', proc: 'engine', tid, name: 'Mark-Kernel', cat: 'engine', ts: t + 5, dur: 3 });
  }
  return recs;
}

describe('span search over the whole run', () => {
  const index = buildTimelineIndex(nested(100));

  it('finds the next match after a time, case-insensitively, with its position among all matches', () => {
    const r = findSpan(index, { text: 'mark-kernel', fromUs: 200, direction: 'next' });
    expect(r.total).toBe(100);
    expect(r.match).toMatchObject({ name: 'Mark-Kernel', startUs: 205, durUs: 3, depth: 2, lane: 'engine:1' });
    expect(r.ordinal).toBe(21);
  });

  it('steps on from a match and back again', () => {
    const first = findSpan(index, { text: 'block', fromUs: -1, direction: 'next' });
    const second = findSpan(index, { text: 'block', fromUs: first.match!.startUs, direction: 'next' });
    const back = findSpan(index, { text: 'block', fromUs: second.match!.startUs, direction: 'previous' });
    expect([first.ordinal, second.ordinal, back.ordinal]).toEqual([1, 2, 1]);
    expect(back.match).toEqual(first.match);
    expect(first.match!.args).toEqual({ i: 0 });
  });

  it('matches any part of the name across several names', () => {
    expect(findSpan(index, { text: 'KERNEL', fromUs: -1, direction: 'next' }).total).toBe(200);
  });

  it('finds a span by which one it was, from its args, though its name is the same for all', () => {
    const electrodes: TraceRecord[] = [0, 1, 2].flatMap((e) => [
      { ph: 'X', proc: 'engine', tid: 1, name: 'electrode', cat: 'engine', ts: e * 10, dur: 8, args: { electrodeIndex: e, electrode: `tet0${e + 1}` } },
      { ph: 'X', proc: 'engine', tid: 1, name: 'block', cat: 'engine', ts: e * 10 + 1, dur: 2, args: { block: 0 } },
      { ph: 'X', proc: 'engine', tid: 1, name: 'block', cat: 'engine', ts: e * 10 + 4, dur: 2, args: { block: 1 } },
    ]);
    const byArgs = buildTimelineIndex(electrodes);
    const tet02 = findSpan(byArgs, { text: 'tet02', fromUs: -1, direction: 'next' });
    expect(tet02).toMatchObject({ total: 1, ordinal: 1, match: { name: 'electrode', startUs: 10 } });
    expect(findSpan(byArgs, { text: 'Block 1', fromUs: -1, direction: 'next' })).toMatchObject({ total: 3, match: { startUs: 4 } });
    expect(findSpan(byArgs, { text: 'electrode', fromUs: -1, direction: 'next' }).total).toBe(3);
  });

  it('says so when nothing lies in that direction or nothing matches', () => {
    expect(findSpan(index, { text: 'block', fromUs: 1e9, direction: 'next' })).toEqual({ total: 100, match: null, ordinal: 0 });
    expect(findSpan(index, { text: 'block', fromUs: 0, direction: 'previous' }).match).toBeNull();
    expect(findSpan(index, { text: 'no such span', fromUs: 0, direction: 'next' })).toEqual({ total: 0, match: null, ordinal: 0 });
  });
});

describe('area summary', () => {
  it('counts the spans overlapping the area by name, with time clipped to it and self time without children', () => {
    const index = buildTimelineIndex(nested(10));
    // [0, 20): the run's first 20 µs, blocks 0 and 1 whole
    const s = summarizeArea(index, { startUs: 0, endUs: 20, lanes: ['engine:1'] });
    const row = (name: string) => s.rows.find((r) => r.name === name)!;
    expect(s).toMatchObject({ startUs: 0, endUs: 20, lanes: 1, spans: 7 });
    expect(row('run')).toEqual({ name: 'run', count: 1, totalUs: 20, selfUs: 20 - 16, meanUs: 20, maxUs: 20 });
    expect(row('block')).toEqual({ name: 'block', count: 2, totalUs: 16, selfUs: 16 - 12, meanUs: 8, maxUs: 8 });
    expect(row('position-kernel')).toMatchObject({ count: 2, totalUs: 6, selfUs: 6 });
    expect(s.rows[0]!.name).toBe('run');
  });

  it('clips spans cut by the area edges', () => {
    const index = buildTimelineIndex(nested(10));
    // [3, 13): block 0 from 3 to 9 (6 µs), its position-kernel 3..4.5, mark-kernel 5..8; block 1 from 11 to 13
    const s = summarizeArea(index, { startUs: 3, endUs: 13, lanes: ['engine:1'] });
    const row = (name: string) => s.rows.find((r) => r.name === name)!;
    expect(row('block')).toMatchObject({ count: 2, totalUs: 6 + 2, maxUs: 6 });
    expect(row('position-kernel')).toMatchObject({ count: 2, totalUs: 1.5 + 1.5 });
    expect(row('block').selfUs).toBeCloseTo(8 - 1.5 - 3 - 1.5, 9);
  });

  it('keeps to the lanes asked for', () => {
    const index = buildTimelineIndex([...nested(5, 1), ...nested(5, 2)]);
    expect(summarizeArea(index, { startUs: 0, endUs: 50, lanes: ['engine:2'] })).toMatchObject({ lanes: 1, spans: 16 });
    expect(summarizeArea(index, { startUs: 0, endUs: 50, lanes: ['engine:1', 'engine:2'] })).toMatchObject({ lanes: 2, spans: 32 });
    expect(summarizeArea(index, { startUs: 0, endUs: 50, lanes: ['nowhere'] })).toMatchObject({ lanes: 0, spans: 0, rows: [] });
  });
});
