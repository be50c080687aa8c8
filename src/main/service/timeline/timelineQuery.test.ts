import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { nestedTrace } from './testing';
import { buildTimelineIndex } from './timelineIndex';
import { MAX_TIMELINE_SPANS, queryTimeline } from './timelineQuery';

describe('timeline level of detail', () => {
  it('returns every span with its depth when each is wider than a pixel', () => {
    const index = buildTimelineIndex(nestedTrace(10));
    const view = queryTimeline(index, { startUs: 0, endUs: 100, widthPx: 1000 });
    expect(view.spans).toHaveLength(31);
    expect(view.lanes).toEqual([{ id: 'engine:1', name: 'engine', process: 'engine', thread: 1 }]);
    expect(view.spans.filter((s) => s.depth === 2)).toHaveLength(20);
    expect(view.spans.every((s) => s.merged === 1)).toBe(true);
    expect(view.spans.find((s) => s.name === 'block')!.args).toEqual({ i: 0 });
  });

  it('keeps only spans that overlap the window', () => {
    const index = buildTimelineIndex(nestedTrace(100));
    const view = queryTimeline(index, { startUs: 500, endUs: 520, widthPx: 1000 });
    const blocks = view.spans.filter((s) => s.name === 'block');
    expect(blocks.map((b) => b.startUs)).toEqual([501, 511]);
    expect(view.spans.filter((s) => s.name === 'run')).toHaveLength(1);
  });

  it('merges sub-pixel spans per lane and depth, keeping their count', () => {
    const index = buildTimelineIndex(nestedTrace(1000));
    // 10 000 µs over 100 px: 100 µs per pixel, so every block (8 µs) is below a pixel
    const view = queryTimeline(index, { startUs: 0, endUs: 10_000, widthPx: 100 });
    const depth1 = view.spans.filter((s) => s.depth === 1);
    expect(depth1.length).toBeLessThanOrEqual(100);
    expect(depth1.reduce((n, s) => n + s.merged, 0)).toBe(1000);
    expect(depth1[0]!.name).toBe('block');
    const depth2 = view.spans.filter((s) => s.depth === 2);
    expect(depth2.reduce((n, s) => n + s.merged, 0)).toBe(2000);
    expect(depth2[0]!.name).toBe('2000 spans');
  });

  it('stays under the span budget for a million events', () => {
    const index = buildTimelineIndex(nestedTrace(333_333));
    expect(index.totalEvents).toBe(1_000_001);
    // its speed is measured in bench/service.ts
    const view = queryTimeline(index, { startUs: 0, endUs: 3_333_330, widthPx: 20_000 });
    expect(view.spans.length).toBeLessThanOrEqual(MAX_TIMELINE_SPANS);
    expect(view.spans.filter((s) => s.depth === 2).reduce((n, s) => n + s.merged, 0)).toBe(666_666);
    // zoomed in, the same index answers with real spans
    const zoom = queryTimeline(index, { startUs: 1_000_000, endUs: 1_000_100, widthPx: 1000 });
    expect(zoom.spans.filter((s) => s.depth === 1).every((s) => s.merged === 1)).toBe(true);
  });

  it('thins instants and reports lanes of both processes, service first', () => {
    const recs: TraceRecord[] = [
      { ph: 'X', proc: 'engine', tid: 1, name: 'run', cat: 'engine', ts: 0, dur: 10 },
      { ph: 'X', proc: 'service', tid: 1, name: 'engine process', cat: 'service', ts: 0, dur: 20 },
      { ph: 'I', proc: 'engine', tid: 1, name: 'mark', cat: 'engine', ts: 5, s: 't' },
    ];
    const view = queryTimeline(buildTimelineIndex(recs), { startUs: 0, endUs: 20, widthPx: 100 });
    expect(view.lanes.map((l) => l.id)).toEqual(['service:1', 'engine:1']);
    expect(view.instants).toEqual([{ lane: 'engine:1', name: 'mark', tsUs: 5 }]);
    expect(view.totalUs).toBe(20);
  });
});
