import { afterEach, describe, expect, it, vi } from 'vitest';
import { CounterSeriesBuilder } from '../../../shared/counterSeries';
import { MAX_NOTICE_LANES, MAX_NOTICE_POINTS, readRunEvent, type OpenSpan, type TraceRecord } from '../../../shared/events';
import { LiveNotices } from './liveNotices';
import { LiveTimeline } from './liveTimeline';
import { simulateRun } from './testing';
import { splitChange, type TimelineChange } from './timelineChanges';

/** a clock that never moves: every query after a change rebuilds */
const stillClock = { nowMs: () => 0 };

/**
 * What a page draws of a window: its lanes, instants and boxes as far as they reach into it (an
 * open span's box grows past the window's end with the trace; the total grows with every batch).
 */
function drawn(live: LiveTimeline, window: { startUs: number; endUs: number }): string {
  const { lanes, spans, instants } = live.query({ ...window, widthPx: 300 });
  const boxes = spans.map(({ startUs, durUs, ...box }) => ({ ...box, from: Math.max(startUs, window.startUs), to: Math.min(startUs + durUs, window.endUs) }));
  return JSON.stringify({ lanes, boxes, instants });
}

const meets = (changes: TimelineChange[], w: { startUs: number; endUs: number }): boolean =>
  changes.some((c) => c.lanesChanged || c.changed.some((r) => r.startUs <= w.endUs && r.endUs >= w.startUs));

describe('what a live timeline says changed', () => {
  it('names a range that meets every window whose drawing changed, and brings every counter point', () => {
    let open: OpenSpan[] = [];
    const live = new LiveTimeline(() => open, stillClock);
    const batches = simulateRun(11);
    const totalUs = Math.max(...batches.flatMap((b) => b.records.map((r) => ('ts' in r ? r.ts + ('dur' in r ? r.dur : 0) : 0))));
    const windows = [0.02, 0.2, 0.45, 0.7, 0.93].map((f) => ({ startUs: f * totalUs, endUs: (f + 0.03) * totalUs }));
    const page = new CounterSeriesBuilder();
    let unchangedWindowsLeftAlone = 0;
    for (const batch of batches) {
      const before = windows.map((w) => drawn(live, w));
      live.append(batch.records);
      open = batch.open;
      const changes = live.takeChanges();
      for (const c of changes) for (const d of c.counters) page.addDelta(d);
      windows.forEach((w, i) => {
        if (drawn(live, w) !== before[i]) expect(meets(changes, w)).toBe(true);
        else if (!meets(changes, w)) unchangedWindowsLeftAlone++;
      });
    }
    // the ranges are narrow enough that a page zoomed elsewhere is mostly left alone
    expect(unchangedWindowsLeftAlone).toBeGreaterThan(batches.length);
    expect(page.withProcess().length).toBeGreaterThan(0);
    expect(page.build()).toEqual(live.counterSeries());
    expect(live.takeChanges()).toEqual([]);
  });

  it('says how far the trace reaches, and that a new lane appeared', () => {
    const live = new LiveTimeline(() => [], stillClock);
    live.append([{ ph: 'X', proc: 'engine', tid: 1, name: 's', cat: 'c', ts: 0, dur: 50 }, { ph: 'C', proc: 'engine', name: 'tensors', ts: 10, args: { MB: 1 } }]);
    const [first] = live.takeChanges();
    expect(first).toEqual({
      latestUs: 50, changed: [{ lane: { process: 'engine', thread: 1 }, startUs: 0, endUs: 50 }], lanesChanged: true,
      counters: [{ proc: 'engine', name: 'tensors', key: 'MB', points: [[10, 1]] }],
    });
    live.append([{ ph: 'X', proc: 'engine', tid: 1, name: 's', cat: 'c', ts: 60, dur: 5 }]);
    expect(live.takeChanges()).toMatchObject([{ latestUs: 65, lanesChanged: false, changed: [{ startUs: 60, endUs: 65 }] }]);
  });

  it('draws an open span from its start, grows it with the trace, and takes it back where it was drawn', () => {
    let open: OpenSpan[] = [{ proc: 'engine', tid: 1, name: 'run', startUs: 5 }];
    const live = new LiveTimeline(() => open, stillClock);
    live.append([{ ph: 'C', proc: 'service', name: 'engine memory (MB)', ts: 20, args: { rss: 1 } }]);
    expect(live.takeChanges()[0]!.changed).toEqual([{ lane: { process: 'engine', thread: 1 }, startUs: 5, endUs: 20 }]);
    live.append([{ ph: 'C', proc: 'service', name: 'engine memory (MB)', ts: 30, args: { rss: 1 } }]);
    expect(live.takeChanges()[0]!.changed).toEqual([{ lane: { process: 'engine', thread: 1 }, startUs: 20, endUs: 30 }]);
    open = [];
    expect(live.takeChanges()[0]!.changed).toEqual([{ lane: { process: 'engine', thread: 1 }, startUs: 5, endUs: 30 }]);
  });

  it('splits what does not fit one notice, and every part passes the page\'s check', () => {
    const lanes = Array.from({ length: MAX_NOTICE_LANES * 2 + 3 }, (_, thread) => ({ lane: { process: 'engine' as const, thread }, startUs: 0, endUs: 1 }));
    const points = Array.from({ length: MAX_NOTICE_POINTS + 10 }, (_, i): [number, number] => [i, i]);
    const change: TimelineChange = {
      latestUs: 9, changed: lanes, lanesChanged: true,
      counters: [{ proc: 'engine', name: 'a', key: 'x', points: points.slice(0, 7) }, { proc: 'service', name: 'b', key: 'y', points }],
    };
    const parts = splitChange(change);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(readRunEvent({ type: 'timeline', runId: 'r', ...p })).not.toBeNull();
    expect(parts.flatMap((p) => p.changed)).toEqual(lanes);
    const byName = (name: string) => parts.flatMap((p) => p.counters.filter((d) => d.name === name).flatMap((d) => d.points));
    expect(byName('b')).toEqual(points);
    expect(byName('a')).toEqual(points.slice(0, 7));
    expect(parts.map((p) => p.lanesChanged)).toEqual(parts.map((_, i) => i === 0));
    expect(readRunEvent({ type: 'timeline', runId: 'r', ...change })).toBeNull();
  });
});

describe('LiveNotices', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends at once after a quiet spell, then at most every interval, and at once when flushed', async () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const sent: number[] = [];
    let pending = 0;
    const change = (): TimelineChange[] => (pending > 0 ? [{ latestUs: (pending = 0), changed: [], lanesChanged: false, counters: [] }] : []);
    const notices = new LiveNotices({ take: change, send: () => sent.push(nowMs), intervalMs: 100, nowMs: () => nowMs });
    const batch = (atMs: number) => {
      nowMs = atMs;
      pending++;
      notices.changed();
    };
    batch(0);
    batch(10);
    batch(50);
    expect(sent).toEqual([0]);
    nowMs = 100;
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toEqual([0, 100]);
    batch(120);
    notices.flush();
    expect(sent).toEqual([0, 100, 120]);
    notices.flush();
    expect(sent).toEqual([0, 100, 120]);
  });

  it('held, sends nothing however much changes, then everything at once when released', async () => {
    vi.useFakeTimers();
    let pending = 0;
    const sent: number[] = [];
    const change = (): TimelineChange[] => (pending > 0 ? [{ latestUs: pending, changed: [], lanesChanged: false, counters: [] }] : []);
    const notices = new LiveNotices({ take: () => { const c = change(); pending = 0; return c; }, send: (c) => sent.push(c.latestUs), intervalMs: 100, held: true, nowMs: () => 0 });
    pending = 3;
    notices.changed();
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toEqual([]);
    notices.release();
    expect(sent).toEqual([3]);
  });
});

describe('a notice brings no record', () => {
  it('carries counters and ranges only', () => {
    const live = new LiveTimeline(() => [], stillClock);
    const records: TraceRecord[] = [{ ph: 'X', proc: 'engine', tid: 2, name: 'decode', cat: 'engine', ts: 1, dur: 2, args: { big: 'x'.repeat(1000) } }];
    live.append(records);
    expect(JSON.stringify(live.takeChanges())).not.toContain('decode');
  });
});
