import { describe, expect, it } from 'vitest';
import { timelineView } from '../testing/sampleData';
import { SPAN_BATCH_SHAPE, spanBatches, splitBySize } from './timelineBatch';
import { clipRect, isInProgress, spanItems, spanOfEvent, spanTooltip, timelineHeightPx, timelineOption, timelineRows } from './timelineOption';

type AnyObj = Record<string, any>;

/** a stand-in for ECharts' render api: x in ms → px ×1, rows 20 px tall from y = 0 */
function fakeApi(item: number[]) {
  return {
    value: (i: number) => item[i],
    coord: ([x, row]: number[]) => [x!, row! * 20 + 10],
    size: () => [0, 20],
  };
}

describe('timelineOption', () => {
  const view = timelineView();

  it('makes one row per lane and depth, named on the lane\'s first row', () => {
    expect(timelineRows(view)).toEqual([
      { lane: 'service:1', depth: 0, label: 'service' },
      { lane: 'engine:1', depth: 0, label: 'engine · main' },
      { lane: 'engine:1', depth: 1, label: '' },
    ]);
    expect(timelineHeightPx(3)).toBeGreaterThan(timelineHeightPx(1));
  });

  it('turns spans into [startMs, endMs, row, index] items', () => {
    const rows = timelineRows(view);
    expect(spanItems(view, rows)).toEqual([
      [0, 1, 1, 0],
      [0.1, 0.5, 2, 1],
      [0.01, 0.015, 0, 2],
    ]);
  });

  it('builds a custom series with zoom inside + slider, the axis over the whole run', () => {
    const opt = timelineOption({ view, totalUs: 2000, window: null }) as AnyObj;
    expect(opt.xAxis.max).toBe(2);
    expect(opt.xAxis.name).toBe('time (ms)');
    expect(opt.yAxis.data).toEqual(['service', 'engine · main', '']);
    expect(opt.dataZoom.map((d: AnyObj) => d.type)).toEqual(['inside', 'slider']);
    expect(opt.dataZoom[0]).toMatchObject({ start: 0, end: 100, filterMode: 'weakFilter' });
    expect(opt.series.map((x: AnyObj) => x.id)).toEqual(['spans', 'slivers', 'instants']);
    // 1200 px over 2 ms: the 5 µs merged box is 3 px at most, so it goes to the batch series
    expect(opt.series[0].data).toHaveLength(2);
    expect(opt.series[1].data).toHaveLength(1);
    const zoomed = timelineOption({ view, totalUs: 2000, window: { startUs: 100, endUs: 600 } }) as AnyObj;
    expect(zoomed.dataZoom[1]).toMatchObject({ startValue: 0.1, endValue: 0.6 });
  });

  it('renders a span as a clipped rectangle with its name when wide enough', () => {
    const opt = timelineOption({ view, totalUs: 1000, window: null }) as AnyObj;
    const render = opt.series[0].renderItem;
    const area = { x: 0, y: 0, width: 100, height: 60 };
    // a box zoomed out to under a pixel still shows, one pixel wide, until the next answer re-splits
    expect(render({ coordSys: area }, fakeApi([0, 0.2, 1, 0])).shape).toMatchObject({ x: 0, width: 1 });
    // 10 px: too narrow for a label
    const narrow = render({ coordSys: area }, fakeApi([0, 10, 1, 0]));
    expect(narrow.type).toBe('rect');
    expect(narrow.shape).toMatchObject({ x: 0, width: 10 });
    expect(narrow.textContent).toBeUndefined();
    // a wide one, starting left of the plot: clipped at x = 0 and labelled
    const wide = render({ coordSys: area }, fakeApi([-20, 80, 2, 1]));
    expect(wide.shape).toMatchObject({ x: 0, width: 80 });
    expect(wide.shape.y).toBeCloseTo(50 - 8.4);
    expect(wide.textContent.style.text).toBe('decode');
    // merged boxes are paler
    const merged = render({ coordSys: area }, fakeApi([5, 50, 0, 2]));
    expect(merged.style.opacity).toBeLessThan(1);
    // entirely outside the plot: nothing drawn
    expect(render({ coordSys: area }, fakeApi([200, 300, 0, 0]))).toBeNull();
  });

  it('splits boxes from slivers at the visible scale', () => {
    const items = spanItems(view, timelineRows(view));
    const { boxes, slivers } = splitBySize(items, 10);
    // at 10 px/ms: run 1 ms = 10 px, decode 0.4 ms = 4 px are boxes; the 5 µs merged one is 0.05 px
    expect(boxes.map((b) => b[3])).toEqual([0, 1]);
    expect(slivers.map((b) => b[3])).toEqual([2]);
    const zoomed = timelineOption({ view, totalUs: 1000, window: { startUs: 0, endUs: 10 }, widthPx: 100 }) as AnyObj;
    expect(zoomed.series[0].data).toHaveLength(3);
  });

  it('draws slivers per row and colour as one batch shape, merging those on the same pixel', () => {
    const slivers = timelineView({
      lanes: [{ id: 'engine:1', name: 'engine' }],
      spans: [
        { lane: 'engine:1', name: 'k', cat: 'c', startUs: 0, durUs: 500, depth: 0, merged: 1 },
        { lane: 'engine:1', name: 'k', cat: 'c', startUs: 700, durUs: 500, depth: 0, merged: 1 },
        { lane: 'engine:1', name: 'k', cat: 'c', startUs: 10_000, durUs: 500, depth: 0, merged: 1 },
        { lane: 'engine:1', name: 'k', cat: 'c', startUs: 20_000, durUs: 9_000, depth: 0, merged: 1 },
      ],
    });
    const batches = spanBatches(slivers, spanItems(slivers, timelineRows(slivers)));
    expect(batches).toHaveLength(1);
    expect(batches[0]!.times).toEqual([0, 0.5, 0.7, 1.2, 10, 10.5, 20, 29]);
    // 100 px over 30 ms: the 0.5 ms spans are slivers (1.7 px), the 9 ms one a box (30 px)
    const opt = timelineOption({ view: slivers, totalUs: 30_000, window: null, widthPx: 100 }) as AnyObj;
    expect(opt.series[0].data).toEqual([[20, 29, 0, 3]]);
    const batchSeries = opt.series.find((s: AnyObj) => s.id === 'slivers');
    expect(batchSeries.data).toEqual([[0, 10.5, 0, 0]]);
    const el = batchSeries.renderItem({ coordSys: { x: 0, y: 0, width: 100, height: 60 } }, fakeApi([0, 29, 0, 0]));
    expect(el.type).toBe(SPAN_BATCH_SHAPE);
    expect(el.silent).toBe(true);
    // each sliver is at least 1 px: 0–1 px and 0.7–1.7 px overlap, one rect 0..1.7; 10..11 alone
    const r = el.shape.rects as number[];
    expect(r).toHaveLength(8);
    expect(r[0]).toBe(0);
    expect(r[2]).toBeCloseTo(1.7);
    expect([r[4], r[6]]).toEqual([10, 1]);
  });

  it('highlights the selected span', () => {
    const opt = timelineOption({ view, totalUs: 1000, window: null, selected: view.spans[1] }) as AnyObj;
    const el = opt.series[0].renderItem({ coordSys: { x: 0, y: 0, width: 100, height: 60 } }, fakeApi([10, 50, 2, 1]));
    expect(el.style.lineWidth).toBe(2);
  });

  it('tooltips name the span, lane, duration and args, escaped', () => {
    const text = spanTooltip({ ...view.spans[1]!, name: '<b>x</b>' }, 'engine · main');
    expect(text).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(text).toContain('400 µs');
    expect(text).toContain('strategy: reference');
    expect(spanTooltip(view.spans[2]!, 'service')).toContain('3 spans merged');
    const opt = timelineOption({ view, totalUs: 1000, window: null }) as AnyObj;
    expect(opt.tooltip.formatter({ value: [0.1, 0.5, 2, 1] })).toContain('decode');
  });

  it('finds the clicked span and clips rectangles', () => {
    expect(spanOfEvent(view, [0, 1, 1, 1])?.name).toBe('decode');
    expect(spanOfEvent(view, 'x')).toBeNull();
    expect(clipRect({ x: -5, y: 0, width: 10, height: 10 }, { x: 0, y: 0, width: 3, height: 100 })).toEqual({ x: 0, y: 0, width: 3, height: 10 });
    expect(clipRect({ x: 10, y: 0, width: 5, height: 5 }, { x: 0, y: 0, width: 3, height: 3 })).toBeNull();
  });
});

describe('spans still running', () => {
  it('are told apart by their in-progress mark, and their tooltip says so', () => {
    const open = { lane: 'engine:1', name: 'run', cat: 'engine', startUs: 0, durUs: 1500, depth: 0, merged: 1, args: { runId: 'r', inProgress: true } };
    expect(isInProgress(open)).toBe(true);
    const text = spanTooltip(open, 'engine');
    expect(text).toContain('(running)');
    expect(text).toContain('running for at least 1.5 ms');
    expect(text).not.toContain('inProgress');
    expect(isInProgress({ ...open, args: { runId: 'r' } })).toBe(false);
  });
});
