import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import type { OpenSpan } from '../../engineProtocol';
import { buildTimelineIndex, IN_PROGRESS_ARG } from './timelineIndex';
import { queryTimeline } from './timelineQuery';

const span = (name: string, ts: number, dur: number, proc: 'engine' | 'service' = 'engine', args?: Record<string, unknown>): TraceRecord =>
  ({ ph: 'X', proc, tid: 1, name, cat: proc, ts, dur, ...(args ? { args } : {}) });
const electrode = (index: number, ts: number, dur: number): TraceRecord =>
  span('electrode', ts, dur, 'engine', { electrodeIndex: index, electrode: `tet${index + 1}` });

/** decode › electrode 0 › (block › mark-kernel), electrode 1 › block */
function decodeTrace(): TraceRecord[] {
  return [
    { ph: 'M', proc: 'engine', tid: 1, name: 'thread_name', args: { name: 'engine' } },
    span('run', 0, 100),
    span('decode', 10, 80),
    electrode(0, 10, 40),
    span('block', 12, 30, 'engine', { block: 0 }),
    span('mark-kernel', 13, 10),
    electrode(1, 50, 40),
    span('block', 52, 30, 'engine', { block: 0 }),
  ];
}

const all = (records: TraceRecord[], open: { open?: OpenSpan[] } = {}) => queryTimeline(buildTimelineIndex(records, open), { startUs: 0, endUs: 1000, widthPx: 10_000 });

describe('timeline lanes per process and electrode', () => {
  it('puts what runs inside each electrode span on a lane of that electrode, named as the dataset names it', () => {
    const view = all(decodeTrace());
    expect(view.lanes).toEqual([
      { id: 'engine:1', name: 'engine', process: 'engine', thread: 1 },
      { id: 'engine:1/electrode 0', name: 'engine · tet1', process: 'engine', thread: 1, electrode: { index: 0, name: 'tet1' } },
      { id: 'engine:1/electrode 1', name: 'engine · tet2', process: 'engine', thread: 1, electrode: { index: 1, name: 'tet2' } },
    ]);
    const on = (lane: string) => view.spans.filter((s) => s.lane === lane).map((s) => `${s.depth}:${s.name}`);
    expect(on('engine:1')).toEqual(['0:run', '1:decode', '2:electrode', '2:electrode']);
    expect(on('engine:1/electrode 0')).toEqual(['0:block', '1:mark-kernel']);
    expect(on('engine:1/electrode 1')).toEqual(['0:block']);
  });

  it('orders electrode lanes by number after their process lane, the service first', () => {
    const recs: TraceRecord[] = [span('engine process', 0, 200, 'service'), electrode(10, 0, 10), span('x', 1, 1), electrode(2, 20, 10), span('y', 21, 1)];
    expect(all(recs).lanes.map((l) => l.id)).toEqual(['service:1', 'engine:1', 'engine:1/electrode 2', 'engine:1/electrode 10']);
  });

  it("puts the external engines' lanes after the engine's, each named by its engine", () => {
    const external = (tid: number, engine: string, ts: number): TraceRecord[] => [
      { ph: 'M', proc: 'external', tid, name: 'thread_name', args: { name: engine } },
      { ph: 'X', proc: 'external', tid, name: 'predict', cat: 'external', ts, dur: 5, args: { engine } },
    ];
    const recs: TraceRecord[] = [...external(2, 'nld:clusterless_kde', 0), ...external(1, 'numpy', 1), span('x', 2, 1), span('engine process', 0, 200, 'service')];
    expect(all(recs).lanes).toEqual([
      { id: 'service:1', name: 'service', process: 'service', thread: 1 },
      { id: 'engine:1', name: 'engine', process: 'engine', thread: 1 },
      { id: 'external:1', name: 'external · numpy', process: 'external', thread: 1 },
      { id: 'external:2', name: 'external · nld:clusterless_kde', process: 'external', thread: 2 },
    ]);
  });

  it('still splits the numbered electrode spans of runs recorded before the names were stable', () => {
    const recs: TraceRecord[] = [span('electrode 3', 0, 10), span('block', 1, 5), span('electrode 0', 20, 10), span('block', 21, 5)];
    expect(all(recs).lanes.map((l) => l.id)).toEqual(['engine:1', 'engine:1/electrode 0', 'engine:1/electrode 3']);
    expect(all(recs).lanes[2]).toEqual({ id: 'engine:1/electrode 3', name: 'engine · electrode 3', process: 'engine', thread: 1, electrode: { index: 3 } });
  });

  it('leaves an electrode span without an index on its process lane', () => {
    const recs: TraceRecord[] = [span('electrode', 0, 10), span('block', 1, 5)];
    expect(all(recs).lanes.map((l) => l.id)).toEqual(['engine:1']);
  });
});

describe('open spans of a live run', () => {
  it('draws them from their start to the newest event, marked in progress, with closed spans nested below', () => {
    const recs: TraceRecord[] = [span('load-data', 1, 4), span('cold', 10, 30), { ph: 'C', proc: 'engine', name: 'engine memory (MB)', ts: 60, args: { rss: 100 } }];
    const open: OpenSpan[] = [
      { proc: 'service', tid: 1, name: 'engine process', startUs: 0 },
      { proc: 'engine', tid: 1, name: 'run', startUs: 0.5, args: { runId: 'r' } },
      { proc: 'engine', tid: 1, name: 'strategy reference', startUs: 9 },
    ];
    const view = all(recs, { open });
    expect(view.lanes.map((l) => l.id)).toEqual(['service:1', 'engine:1']);
    const run = view.spans.find((s) => s.name === 'run')!;
    expect(run).toMatchObject({ depth: 0, startUs: 0.5, durUs: 59.5, args: { runId: 'r', [IN_PROGRESS_ARG]: true } });
    expect(view.spans.find((s) => s.name === 'strategy reference')).toMatchObject({ depth: 1, durUs: 51 });
    expect(view.spans.find((s) => s.name === 'cold')).toMatchObject({ depth: 2 });
    expect(view.spans.find((s) => s.name === 'load-data')).toMatchObject({ depth: 1 });
    expect(view.spans.find((s) => s.name === 'engine process')).toMatchObject({ lane: 'service:1', startUs: 0, durUs: 60 });
    // the trace itself holds only what ended
    expect(view.totalEvents).toBe(3);
  });

  it('drops an open span once the trace holds it complete', () => {
    const view = all([span('run', 0.502, 50)], { open: [{ proc: 'engine', tid: 1, name: 'run', startUs: 0.5 }] });
    expect(view.spans.filter((s) => s.name === 'run')).toHaveLength(1);
    expect(view.spans[0]!.args).toBeUndefined();
  });
  it('keeps a span that starts on the nanosecond its sibling ended on the same row, float rounding or not', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in float: the second stage starts "before" the first ends
    const view = all([span('block', 0, 1), span('kernel', 0.1, 0.2), span('gemm', 0.3, 0.2)]);
    expect(0.1 + 0.2 > 0.3).toBe(true);
    expect(view.spans.find((s) => s.name === 'kernel')!.depth).toBe(1);
    expect(view.spans.find((s) => s.name === 'gemm')!.depth).toBe(1);
  });
});
