/**
 * The flame chart of the live run: one band of rows per lane (process · thread, e.g. the engine's
 * main thread), one row per nesting depth, a box per span from the service's level-of-detail view.
 * Boxes are drawn by a custom series so a box keeps its exact start and width at every zoom;
 * time on the axis is in milliseconds from the run's start.
 * Spans too narrow to click at the visible scale are drawn in batches (timelineBatch.ts); the split
 * is redone with each level-of-detail answer, so zooming in makes them boxes of their own.
 */
import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn, EChartsOption } from 'echarts';
import { IN_PROGRESS_ARG, type TimelineSpan, type TimelineView } from '../../../shared/api';
import { formatUs } from '../../../shared/format';
import type { TimeWindow } from '../lib/timeWindow';
import { escapeHtml } from './palette';
import { renderBatch, spanBatches, spanFill, splitBySize, type SpanBatch, type SpanItem } from './timelineBatch';

export interface TimelineRow {
  lane: string;
  depth: number;
  /** the lane's name on its first row, empty on deeper rows */
  label: string;
}

export interface TimelineInput {
  view: TimelineView;
  /** the run's length so far; the axis spans [0, totalUs] */
  totalUs: number;
  /** the visible window; null shows the whole run */
  window: TimeWindow | null;
  /** the plot's width in pixels, for the box/sliver split (default 1200) */
  widthPx?: number;
  selected?: TimelineSpan | null;
}

export const TIMELINE_ROW_PX = 22;
const CHROME_PX = 90;
const MIN_LABEL_PX = 36;
export function timelineRows(view: TimelineView): TimelineRow[] {
  const depthOf = new Map<string, number>();
  for (const s of view.spans) depthOf.set(s.lane, Math.max(depthOf.get(s.lane) ?? 0, s.depth));
  const rows: TimelineRow[] = [];
  for (const lane of view.lanes) {
    const maxDepth = depthOf.get(lane.id) ?? 0;
    for (let d = 0; d <= maxDepth; d++) rows.push({ lane: lane.id, depth: d, label: d === 0 ? lane.name : '' });
  }
  return rows;
}

/** the chart's height for a number of rows, so deep traces get room instead of squeezed boxes */
export function timelineHeightPx(rowCount: number): number {
  return CHROME_PX + Math.max(rowCount, 2) * TIMELINE_ROW_PX;
}

export function spanItems(view: TimelineView, rows: TimelineRow[]): SpanItem[] {
  const rowIndex = new Map<string, number>();
  rows.forEach((r, i) => rowIndex.set(`${r.lane}\u0000${r.depth}`, i));
  const items: SpanItem[] = [];
  view.spans.forEach((s, i) => {
    const row = rowIndex.get(`${s.lane}\u0000${s.depth}`);
    if (row !== undefined) items.push([s.startUs / 1000, (s.startUs + s.durUs) / 1000, row, i]);
  });
  return items;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** the part of a box inside the plot area; null when none is */
export function clipRect(r: Rect, area: Rect): Rect | null {
  const x0 = Math.max(r.x, area.x);
  const y0 = Math.max(r.y, area.y);
  const x1 = Math.min(r.x + r.width, area.x + area.width);
  const y1 = Math.min(r.y + r.height, area.y + area.height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

export function isInProgress(span: TimelineSpan): boolean {
  return span.args?.[IN_PROGRESS_ARG] === true;
}

export function spanTooltip(span: TimelineSpan, laneName: string): string {
  const open = isInProgress(span);
  const lines = [
    `<b>${escapeHtml(span.name)}</b>${open ? ' (running)' : ''}`,
    `${escapeHtml(laneName)} · depth ${span.depth}${span.cat ? ` · ${escapeHtml(span.cat)}` : ''}`,
    open
      ? `running for at least ${formatUs(span.durUs)} · started at ${formatUs(span.startUs)}`
      : `duration ${formatUs(span.durUs)} · starts at ${formatUs(span.startUs)}`,
  ];
  if (span.merged > 1) lines.push(`${span.merged} spans merged at this zoom; zoom in to see them`);
  for (const [k, v] of Object.entries(span.args ?? {}).filter(([k]) => k !== IN_PROGRESS_ARG).slice(0, 8)) {
    lines.push(`${escapeHtml(k)}: ${escapeHtml(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`);
  }
  return lines.join('<br/>');
}

function renderSpan(view: TimelineView, selected: TimelineSpan | null | undefined) {
  return (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const start = api.value(0) as number;
    const end = api.value(1) as number;
    const row = api.value(2) as number;
    const span = view.spans[api.value(3) as number];
    if (!span) return null;
    const [x0, yMid] = api.coord([start, row]) as [number, number];
    const [x1] = api.coord([end, row]) as [number, number];
    const height = (api.size!([0, 1]) as number[])[1]! * 0.84;
    const area = params.coordSys as unknown as Rect;
    const rect = clipRect({ x: x0, y: yMid - height / 2, width: Math.max(x1 - x0, 1), height }, area);
    if (!rect) return null;
    const isSelected = selected != null && selected.lane === span.lane && selected.startUs === span.startUs && selected.depth === span.depth;
    const { fill, opacity } = spanFill(span);
    // a span still running: dashed outline and "…", since its right edge is only the newest event
    const open = isInProgress(span);
    return {
      type: 'rect',
      shape: rect,
      style: {
        fill,
        opacity: open ? opacity * 0.75 : opacity,
        stroke: isSelected ? '#ffd400' : open ? 'rgba(0,0,0,0.6)' : 'rgba(0,0,0,0.25)',
        lineWidth: isSelected ? 2 : open ? 1 : rect.width > 3 ? 0.5 : 0,
        lineDash: open && !isSelected ? [4, 3] : undefined,
      },
      textContent: rect.width >= MIN_LABEL_PX
        ? { type: 'text', style: { text: open ? `${span.name} …` : span.name, fill: '#fff', fontSize: 11, width: rect.width - 6, overflow: 'truncate' } }
        : undefined,
      textConfig: { position: 'insideLeft' },
    } as CustomSeriesRenderItemReturn;
  };
}

/** one data item per batch of slivers: the time range it covers, on its row */
function batchItems(batches: readonly SpanBatch[]): number[][] {
  return batches.map((b, i) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < b.times.length; k += 2) {
      lo = Math.min(lo, b.times[k]!);
      hi = Math.max(hi, b.times[k + 1]!);
    }
    return [lo, hi, b.row, i];
  });
}

/** instants sit on their lane's first row */
function instantItems(view: TimelineView, rows: readonly TimelineRow[]): { value: number[]; name: string }[] {
  const rowOfLane = new Map<string, number>();
  rows.forEach((r, i) => r.depth === 0 && rowOfLane.set(r.lane, i));
  return view.instants
    .filter((i) => rowOfLane.has(i.lane))
    .map((i) => ({ value: [i.tsUs / 1000, rowOfLane.get(i.lane)!], name: i.name }));
}

function timelineTooltip(view: TimelineView): EChartsOption['tooltip'] {
  const laneName = new Map(view.lanes.map((l) => [l.id, l.name]));
  return {
    trigger: 'item',
    confine: true,
    formatter: (p: unknown) => {
      const params = p as { seriesId?: string; value?: unknown; name?: string };
      if (params.seriesId === 'instants') return `instant: ${escapeHtml(params.name ?? '')}`;
      const idx = Array.isArray(params.value) ? (params.value[3] as number) : -1;
      const span = view.spans[idx];
      return span ? spanTooltip(span, laneName.get(span.lane) ?? span.lane) : '';
    },
  };
}

function timelineAxes(totalMs: number, rows: readonly TimelineRow[]): Pick<EChartsOption, 'xAxis' | 'yAxis'> {
  return {
    xAxis: {
      type: 'value',
      min: 0,
      max: totalMs,
      name: 'time (ms)',
      nameLocation: 'middle',
      nameGap: 24,
      // the window's own edges are odd numbers that collide with the nice ticks beside them
      axisLabel: { formatter: (v: number) => String(Number(v.toPrecision(6))), showMinLabel: false, showMaxLabel: false },
      splitLine: { show: true, lineStyle: { opacity: 0.3 } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: rows.map((r) => r.label),
      axisTick: { show: false },
      axisLabel: { interval: 0, width: 130, overflow: 'truncate' },
      splitLine: { show: false },
    },
  };
}

function timelineDataZoom(window: TimeWindow | null): EChartsOption['dataZoom'] {
  const zoom = window ? { startValue: window.startUs / 1000, endValue: window.endUs / 1000 } : { start: 0, end: 100 };
  return [
    { type: 'inside', id: 'zoomInside', xAxisIndex: 0, filterMode: 'weakFilter', zoomOnMouseWheel: true, moveOnMouseMove: true, ...zoom },
    { type: 'slider', id: 'zoomSlider', xAxisIndex: 0, filterMode: 'weakFilter', height: 16, bottom: 6, showDetail: false, ...zoom },
  ];
}

export function timelineOption(input: TimelineInput): EChartsOption {
  const { view, selected } = input;
  const totalMs = Math.max(input.totalUs, view.totalUs, 1) / 1000;
  const rows = timelineRows(view);
  const windowMs = input.window ? (input.window.endUs - input.window.startUs) / 1000 : totalMs;
  const { boxes, slivers } = splitBySize(spanItems(view, rows), (input.widthPx ?? 1200) / Math.max(windowMs, 1e-9));
  const batches = spanBatches(view, slivers);
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 140, right: 24, top: 12, bottom: 64 },
    tooltip: timelineTooltip(view),
    ...timelineAxes(totalMs, rows),
    dataZoom: timelineDataZoom(input.window),
    series: [
      // one pass, no progressive drawing: it would flicker on every live refresh
      { id: 'spans', type: 'custom', renderItem: renderSpan(view, selected), encode: { x: [0, 1], y: 2 }, data: boxes, progressive: 0, clip: true },
      { id: 'slivers', type: 'custom', silent: true, renderItem: renderBatch(batches), encode: { x: [0, 1], y: 2 }, data: batchItems(batches), progressive: 0 },
      { id: 'instants', type: 'scatter', symbol: 'triangle', symbolSize: 8, symbolRotate: 180, itemStyle: { color: '#e15759' }, data: instantItems(view, rows) },
    ],
  };
}

/** the span behind a click on the chart, from the event's data value */
export function spanOfEvent(view: TimelineView | null, value: unknown): TimelineSpan | null {
  if (!view || !Array.isArray(value) || value.length < 4) return null;
  return view.spans[value[3] as number] ?? null;
}
