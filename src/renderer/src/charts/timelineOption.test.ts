import { describe, expect, it } from 'vitest';
import { timelineView } from '../testing/sampleData';
import { clipRect, spanItems, spanOfEvent, spanTooltip, timelineHeightPx, timelineOption, timelineRows } from './timelineOption';

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
    expect(opt.series[0].type).toBe('custom');
    expect(opt.series[0].data).toHaveLength(3);
    const zoomed = timelineOption({ view, totalUs: 2000, window: { startUs: 100, endUs: 600 } }) as AnyObj;
    expect(zoomed.dataZoom[1]).toMatchObject({ startValue: 0.1, endValue: 0.6 });
  });

  it('renders a span as a clipped rectangle with its name when wide enough', () => {
    const opt = timelineOption({ view, totalUs: 1000, window: null }) as AnyObj;
    const render = opt.series[0].renderItem;
    const area = { x: 0, y: 0, width: 100, height: 60 };
    // the run span: 0..1 ms → 0..1 px: narrow, no label
    const narrow = render({ coordSys: area }, fakeApi([0, 1, 1, 0]));
    expect(narrow.type).toBe('rect');
    expect(narrow.shape).toMatchObject({ x: 0, width: 1 });
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
