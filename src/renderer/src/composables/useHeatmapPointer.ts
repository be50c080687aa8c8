/**
 * What the pointer does on a likelihood or posterior heatmap: a read-out of the cell under it (an
 * image has no per-cell tooltip), a drag across it selects a range of time rows, a click names the
 * row under it. The chart keeps the raster and the option; this keeps the pointing, so the two can
 * be read apart.
 */
import { computed, ref, type ComputedRef, type Ref } from 'vue';
import type { LikelihoodView } from '../../../shared/api';
import { cellAt, rowAtCell, rowsOfCell } from '../charts/likelihoodHeatmapOption';
import { formatNumber } from '../lib/format';

/** pixels a press must move before it is a drag rather than a click */
const DRAG_PX = 4;

/** the part of an ECharts instance the pointing asks: whether a pixel is on the grid, and where */
interface GridPixels {
  containPixel(finder: { gridIndex: number }, px: number[]): boolean;
  convertFromPixel(finder: { gridIndex: number }, px: number[]): unknown;
}

export interface HeatmapPointerInput {
  /** the chart's ECharts instance once it is mounted */
  instance: () => GridPixels | undefined;
  /** the view as the axes read it, whichever kind it is */
  shown: ComputedRef<LikelihoodView>;
  values: ComputedRef<readonly number[]>;
  /** a posterior: positions in cm, and a cell off the track reads so */
  posterior: () => boolean;
  valueName: ComputedRef<string>;
  select: (start: number, end: number) => void;
  pick: (row: number) => void;
}

interface PointerEvent {
  offsetX: number;
  offsetY: number;
}

export function useHeatmapPointer(input: HeatmapPointerInput) {
  const hover = ref<string | null>(null);
  const drag: Ref<{ fromPx: number; fromX: number; toX: number } | null> = ref(null);

  /** the rows being dragged across, before the press ends */
  const dragRows = computed((): [number, number] | null => {
    const d = drag.value;
    if (!d) return null;
    const [a, b] = [rowAtCell(input.shown.value, Math.min(d.fromX, d.toX)), rowAtCell(input.shown.value, Math.max(d.fromX, d.toX))];
    return b > a ? [a, b] : null;
  });

  function cellUnits(e: PointerEvent): number[] | null {
    const inst = input.instance();
    if (!inst || !inst.containPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY])) return null;
    return (inst.convertFromPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY]) as number[] | undefined) ?? null;
  }

  function rowsText(r: number): string {
    const [from, to] = rowsOfCell(input.shown.value, r);
    return to - from > 1 ? `rows ${from}–${to - 1} (maximum)` : `row ${from}`;
  }

  function onMove(e: PointerEvent): void {
    const at = cellUnits(e);
    if (drag.value && at) drag.value = { ...drag.value, toX: at[0]! };
    const cell = at ? cellAt(input.shown.value, input.values.value, at[0]!, at[1]!) : null;
    const posterior = input.posterior();
    hover.value = cell
      ? `t = ${formatNumber(cell.time)} s · ${rowsText(Math.round(at![0]!))} · position ${formatNumber(cell.position)}${posterior ? ' cm' : ''} · ` +
        `${input.valueName.value} ${Number.isFinite(cell.value) ? formatNumber(cell.value) : posterior ? 'off the track' : '−∞'}`
      : null;
  }

  function onDown(e: PointerEvent): void {
    const at = cellUnits(e);
    drag.value = at ? { fromPx: e.offsetX, fromX: at[0]!, toX: at[0]! } : null;
  }

  function onUp(e: { offsetX: number }): void {
    const d = drag.value;
    drag.value = null;
    if (!d) return;
    const v = input.shown.value;
    const rows = Math.abs(e.offsetX - d.fromPx) >= DRAG_PX ? [rowAtCell(v, Math.min(d.fromX, d.toX)), rowAtCell(v, Math.max(d.fromX, d.toX))] : null;
    if (rows && rows[1]! > rows[0]!) input.select(rows[0]!, rows[1]!);
    else input.pick(rowsOfCell(v, Math.min(v.rows - 1, Math.max(0, Math.round(d.fromX))))[0]);
  }

  function onOut(): void {
    hover.value = null;
    drag.value = null;
  }

  return { hover, dragRows, onMove, onDown, onUp, onOut };
}
