/**
 * The timeline's slivers: spans narrower than MIN_BOX_PX at the visible scale, drawn per row and
 * colour as one batch shape (SPAN_BATCH_SHAPE, registered in components/echartsSetup.ts) instead of
 * one element each, so twenty thousand of them cost a few dozen elements and zooming stays smooth.
 */
import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from 'echarts';
import type { TimelineSpan, TimelineView } from '../../../shared/api';
import { colorForName } from './palette';

/** a span's data item: [startMs, endMs, row, index into view.spans] */
export type SpanItem = [number, number, number, number];

/** narrower boxes go into the batch shape */
export const MIN_BOX_PX = 3;
/** the registered zrender shape that draws many rectangles as one path: shape.rects = [x, y, w, h, …] */
export const SPAN_BATCH_SHAPE = 'timelineSpanBatch';

/** the spans of one row that share a colour, for the batch shape */
export interface SpanBatch {
  row: number;
  fill: string;
  opacity: number;
  /** [startMs, endMs, …] */
  times: number[];
}

export function spanFill(span: TimelineSpan): { fill: string; opacity: number } {
  return { fill: colorForName(span.merged > 1 ? span.cat || span.name : span.name), opacity: span.merged > 1 ? 0.55 : 1 };
}

/** boxes: wide enough at pxPerMs to be elements of their own; slivers: the rest */
export function splitBySize(items: readonly SpanItem[], pxPerMs: number): { boxes: SpanItem[]; slivers: SpanItem[] } {
  const boxes: SpanItem[] = [];
  const slivers: SpanItem[] = [];
  for (const it of items) ((it[1] - it[0]) * pxPerMs >= MIN_BOX_PX ? boxes : slivers).push(it);
  return { boxes, slivers };
}

export function spanBatches(view: TimelineView, items: readonly SpanItem[]): SpanBatch[] {
  const byKey = new Map<string, SpanBatch>();
  for (const [startMs, endMs, row, idx] of items) {
    const { fill, opacity } = spanFill(view.spans[idx]!);
    const key = `${row}\u0000${fill}\u0000${opacity}`;
    let b = byKey.get(key);
    if (!b) byKey.set(key, (b = { row, fill, opacity, times: [] }));
    b.times.push(startMs, endMs);
  }
  return [...byKey.values()];
}

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function renderBatch(batches: readonly SpanBatch[]) {
  return (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const batch = batches[api.value(3) as number];
    if (!batch) return null;
    const area = params.coordSys as unknown as Area;
    // the axis is linear: two points give every x without a coord() call per span
    const [a, yMid] = api.coord([0, batch.row]) as [number, number];
    const [b] = api.coord([1, batch.row]) as [number, number];
    const pxPerMs = b - a;
    const height = (api.size!([0, 1]) as number[])[1]! * 0.84;
    const y = Math.max(yMid - height / 2, area.y);
    const h = Math.min(yMid + height / 2, area.y + area.height) - y;
    if (h <= 0) return null;
    const rects: number[] = [];
    let lastEnd = -Infinity;
    for (let i = 0; i < batch.times.length; i += 2) {
      let x0 = a + batch.times[i]! * pxPerMs;
      let x1 = a + batch.times[i + 1]! * pxPerMs;
      x0 = Math.max(x0, area.x);
      x1 = Math.min(Math.max(x1, x0 + 1), area.x + area.width);
      if (x1 <= x0) continue;
      // slivers on the same pixel become one rectangle
      if (rects.length > 0 && x0 <= lastEnd + 0.5) {
        const w = rects.length - 2;
        rects[w] = Math.max(rects[w]!, x1 - rects[w - 2]!);
      } else {
        rects.push(x0, y, x1 - x0, h);
      }
      lastEnd = Math.max(lastEnd, x1);
    }
    if (rects.length === 0) return null;
    return { type: SPAN_BATCH_SHAPE, shape: { rects }, style: { fill: batch.fill, opacity: batch.opacity }, silent: true } as unknown as CustomSeriesRenderItemReturn;
  };
}

