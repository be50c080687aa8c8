import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimelineRequest } from '../../../shared/api';
import type { TraceRecord } from '../../../shared/events';
import type { OpenSpan } from '../../engineProtocol';
import { ndjsonLine, readNdjsonRecords } from '../../export';
import { counterSeries } from '../../../shared/counterSeries';
import { LiveTimeline } from './liveTimeline';
import { simulateRun } from './testing';
import { TimelineCache } from './timelineCache';
import { buildTimelineIndex, IN_PROGRESS_ARG } from './timelineIndex';
import { queryTimeline } from './timelineQuery';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-timeline-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** whole trace at two widths (every span, then merged), and two zoomed windows */
function requestsFor(totalUs: number): TimelineRequest[] {
  return [
    { startUs: 0, endUs: totalUs, widthPx: 4000 },
    { startUs: 0, endUs: totalUs, widthPx: 60 },
    { startUs: totalUs * 0.3, endUs: totalUs * 0.35, widthPx: 800 },
    { startUs: totalUs * 0.9, endUs: totalUs * 1.1, widthPx: 20 },
  ];
}

/** a clock that never moves: every query after a change rebuilds */
const stillClock = { nowMs: () => 0 };

describe('LiveTimeline answers as the file does for the same records', () => {
  it('batch by batch with open spans, and once finished as TimelineCache reads events.ndjson', async () => {
    const path = join(dir, 'events.ndjson');
    let open: OpenSpan[] = [];
    const live = new LiveTimeline(() => open, stillClock);
    const batches = simulateRun(7);
    expect(batches.length).toBeGreaterThan(20);
    let sawInProgress = false;
    for (const [i, batch] of batches.entries()) {
      // one line per batch, as the run's EventLog writes it
      appendFileSync(path, ndjsonLine(batch.records));
      live.append(batch.records);
      open = batch.open;
      if (i % 5 !== 0 && i !== batches.length - 1) continue;
      // what the file-based path saw for a live run: the file so far, then the open spans
      const { records } = await readNdjsonRecords(path);
      const fromFile = buildTimelineIndex(records, { open });
      for (const request of requestsFor(fromFile.endUs)) expect(live.query(request)).toEqual(queryTimeline(fromFile, request));
      sawInProgress ||= live.query(requestsFor(fromFile.endUs)[0]!).spans.some((s) => s.args?.[IN_PROGRESS_ARG] === true);
      expect(live.counterSeries()).toEqual(counterSeries(records));
      expect(live.counterSeries(10)).toEqual(counterSeries(records, 10));
    }
    expect(sawInProgress).toBe(true);
    const cache = new TimelineCache();
    const finished = await cache.get('r', path);
    open = [];
    for (const request of requestsFor(finished.endUs)) expect(live.query(request)).toEqual(queryTimeline(finished, request));
    expect(live.counterSeries()).toEqual(await cache.counters('r', path));
    expect(live.recordCount).toBe(finished.totalEvents);
    // what the service hands the cache when the run ends answers as the file does, and reads no file
    const settled = live.settled();
    for (const request of requestsFor(finished.endUs)) expect(queryTimeline(settled.index, request)).toEqual(queryTimeline(finished, request));
    expect(settled.counters).toEqual(await cache.counters('r', path));
    const adopted = new TimelineCache();
    adopted.adopt('r', settled);
    expect(await adopted.get('r', join(dirname(path), 'no-such-file.ndjson'))).toBe(settled.index);
    expect(finished.lanes.map((l) => l.lane.id)).toEqual(['service:1', 'engine:1', ...[0, 1, 2, 3].map((e) => `engine:1/electrode ${e}`)]);
  });

  it('drops records a file reader would drop', () => {
    const live = new LiveTimeline(() => [], stillClock);
    const good: TraceRecord = { ph: 'X', proc: 'engine', tid: 1, name: 'run', cat: 'engine', ts: 0, dur: 5 };
    live.append([good, { ph: 'X', proc: 'nobody', tid: 1, name: 'x', cat: 'x', ts: 1, dur: 1 } as unknown as TraceRecord]);
    const view = live.query({ startUs: 0, endUs: 10, widthPx: 100 });
    expect(view.totalEvents).toBe(1);
    expect(view.spans.map((s) => s.name)).toEqual(['run']);
  });

  it('is an empty timeline before anything arrived', () => {
    const view = new LiveTimeline(() => []).query({ startUs: 0, endUs: 100, widthPx: 10 });
    expect(view).toEqual({ startUs: 0, endUs: 100, totalUs: 0, lanes: [], spans: [], instants: [], totalEvents: 0 });
  });
});

describe('LiveTimeline rebuilds', () => {
  const span = (name: string, ts: number): TraceRecord => ({ ph: 'X', proc: 'engine', tid: 1, name, cat: 'engine', ts, dur: 1 });
  const names = (live: LiveTimeline) => live.query({ startUs: 0, endUs: 100, widthPx: 1000 }).spans.map((s) => s.name);

  it('keeps the index while nothing changed, and sees new open spans', () => {
    let open: OpenSpan[] = [];
    const live = new LiveTimeline(() => open, stillClock);
    live.append([span('a', 0)]);
    const first = live.index();
    expect(live.index()).toBe(first);
    open = [{ proc: 'engine', tid: 1, name: 'b', startUs: 2 }];
    expect(names(live)).toEqual(['a', 'b']);
  });

  it('spaces a slow rebuild out to four times its duration', () => {
    // the clock reads 0 before the first build and 100 after it: that build took 100 ms
    const readings = [0, 100];
    let laterMs = 0;
    const live = new LiveTimeline(() => [], { nowMs: () => readings.shift() ?? laterMs });
    live.append([span('a', 0)]);
    expect(names(live)).toEqual(['a']);
    live.append([span('b', 5)]);
    laterMs = 300;
    expect(names(live)).toEqual(['a']);
    laterMs = 500;
    expect(names(live)).toEqual(['a', 'b']);
  });
});
