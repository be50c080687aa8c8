/**
 * The decoded log likelihood as a time × position heatmap, with the decoded position (argmax) and
 * the true position drawn over it. Both axes count cells (time row, position bin) and label them
 * with the row's time and the bin's centre; the heatmap is one image (heatmapRaster) stretched
 * over the cells, and positions of the lines are mapped to fractional bin indices, so everything
 * lines up even where bins or rows are not evenly spaced. Ticks sit at round values of time and
 * position (niceTicks.ts), wherever those fall among the cells.
 * A view may stand for more time rows than it has displayed rows (an overview): displayed row i
 * covers the time rows rowsOfCell(view, i), and a time row sits at cellOfRow(view, row) on the
 * x axis, which is how a selected range of rows and the decode windows' edges are drawn.
 */
import type {
  CustomSeriesOption, CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn, EChartsOption, LineSeriesOption, MarkAreaComponentOption,
  MarkLineComponentOption,
} from 'echarts';
import type { LikelihoodView } from '../../../shared/api';
import { upperBound } from '../../../shared/sortedSearch';
import { formatNumber } from '../lib/format';
import { VIRIDIS } from './heatmapRaster';
import { cellTicks, type CellTickOptions } from './niceTicks';

/** below this share of values the colour scale saturates, so a few floor values do not wash out the rest */
const LOW_PERCENTILE = 0.02;
const MAX_SCALE_SAMPLES = 100_000;

/** the index, fractional between neighbours, where v falls in ascending centres; null for NaN */
export function fractionalIndex(centers: readonly number[], v: number): number | null {
  if (!Number.isFinite(v) || centers.length === 0) return null;
  const n = centers.length;
  if (n === 1) return 0;
  if (v <= centers[0]!) return Math.max(-0.5, (v - centers[0]!) / (centers[1]! - centers[0]! || 1));
  if (v >= centers[n - 1]!) return Math.min(n - 0.5, n - 1 + (v - centers[n - 1]!) / (centers[n - 1]! - centers[n - 2]! || 1));
  // v lies strictly inside the centres here: between the last centre ≤ v and the first one above
  const hi = upperBound(centers, v, 1, n - 1);
  const lo = hi - 1;
  const a = centers[lo]!;
  const b = centers[hi]!;
  return lo + (b === a ? 0 : (v - a) / (b - a));
}

/** colour range: [LOW_PERCENTILE quantile, max] of the finite values, sampled on big views */
export function colorRange(values: readonly number[]): [number, number] {
  const step = Math.max(1, Math.ceil(values.length / MAX_SCALE_SAMPLES));
  const finite: number[] = [];
  for (let i = 0; i < values.length; i += step) if (Number.isFinite(values[i]!)) finite.push(values[i]!);
  if (finite.length === 0) return [0, 1];
  finite.sort((a, b) => a - b);
  const lo = finite[Math.floor(LOW_PERCENTILE * (finite.length - 1))]!;
  const hi = finite[finite.length - 1]!;
  return lo === hi ? [lo - 1, hi] : [lo, hi];
}

/**
 * Each time row minus its own maximum. Rows differ by tens of log units (a row with many spikes is
 * far less likely overall), which would paint whole columns one colour and hide where in each row
 * the likelihood peaks; relative to the row's maximum, the peak is 0 in every row.
 */
export function rowRelativeValues(view: LikelihoodView): number[] {
  const out = view.values.slice();
  for (let r = 0; r < view.rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < view.cols; c++) max = Math.max(max, out[r * view.cols + c] ?? -Infinity);
    if (!Number.isFinite(max)) continue;
    for (let c = 0; c < view.cols; c++) out[r * view.cols + c] = out[r * view.cols + c]! - max;
  }
  return out;
}

function overlayLine(view: LikelihoodView, name: string, positions: readonly number[], color: string, dashed: boolean): LineSeriesOption {
  return {
    type: 'line',
    name,
    showSymbol: false,
    connectNulls: false,
    lineStyle: { color, width: 1.5, type: dashed ? 'dashed' : 'solid' },
    itemStyle: { color },
    data: positions.map((p, r) => {
      const y = fractionalIndex(view.binCenters, p);
      return { value: [r, y ?? '-'], position: p, time: view.time[r] };
    }),
  };
}

export interface LikelihoodOptions {
  /** show each row relative to its maximum (default) or the raw log likelihood */
  relative?: boolean;
  /** the heatmap's pixels on a canvas (or a data URL), from heatmapRaster; absent draws the lines only */
  image?: unknown;
  /** the colour scale's [low, high], when the caller has it already (colorRange of the values shown) */
  range?: readonly [number, number];
  /** time rows [start, end) to mark as selected (the zoomed range, or a range being dragged) */
  selection?: readonly [number, number] | null;
  /** time rows to mark with a thin line: where the decode's windows start */
  rowMarks?: readonly number[];
}

/** the narrowest a selection is drawn, as a share of the view's width */
const MIN_SELECTION_SHARE = 0.006;
/** more window edges than this in one view would be a grey wash, not marks */
export const MAX_ROW_MARKS = 200;

/** the time rows [from, to) that displayed row i stands for */
export function rowsOfCell(view: LikelihoodView, i: number): [number, number] {
  const n = view.endRow - view.startRow;
  return [view.startRow + Math.floor((i * n) / view.rows), view.startRow + Math.floor(((i + 1) * n) / view.rows)];
}

/** where a time row's start sits on the x axis, in cell units (a block of rows spans one cell) */
export function cellOfRow(view: LikelihoodView, row: number): number {
  return (row - view.startRow) / view.rowsPerRow - 0.5;
}

/** the time row edge nearest a point on the x axis, within the rows shown */
export function rowAtCell(view: LikelihoodView, x: number): number {
  const row = view.startRow + Math.round((x + 0.5) * view.rowsPerRow);
  return Math.min(view.endRow, Math.max(view.startRow, row));
}

function selectionArea(view: LikelihoodView, selection: readonly [number, number] | null | undefined): MarkAreaComponentOption {
  let edges: [{ xAxis: number }, { xAxis: number }] | null = null;
  if (selection && selection[1] > view.startRow && selection[0] < view.endRow) {
    let x0 = cellOfRow(view, Math.max(view.startRow, selection[0]));
    let x1 = cellOfRow(view, Math.min(view.endRow, selection[1]));
    // one window of a long decode is a sliver of the overview: drawn no thinner than a few pixels
    const widen = Math.max(0, MIN_SELECTION_SHARE * view.rows - (x1 - x0)) / 2;
    [x0, x1] = [x0 - widen, x1 + widen];
    edges = [{ xAxis: x0 }, { xAxis: x1 }];
  }
  return {
    silent: true,
    // above the image (whose series sits at z 1, where a mark area would be drawn under it)
    z: 3,
    itemStyle: { color: 'rgba(255, 255, 255, 0.22)', borderColor: '#ffffff', borderWidth: 2 },
    data: edges ? [edges] : [],
  };
}

function rowMarkLines(view: LikelihoodView, rows: readonly number[] | undefined): MarkLineComponentOption {
  const inside = (rows ?? []).filter((r) => r > view.startRow && r < view.endRow);
  return {
    silent: true,
    symbol: ['none', 'none'],
    label: { show: false },
    lineStyle: { color: 'rgba(255, 255, 255, 0.45)', type: 'dotted', width: 1 },
    data: inside.length <= MAX_ROW_MARKS ? inside.map((r) => ({ xAxis: cellOfRow(view, r) })) : [],
  };
}

export const DECODED_COLOR = '#ff3b30';
export const TRUE_COLOR = '#00d5ff';

/** the values the colours stand for: row-relative by default */
export function likelihoodValues(view: LikelihoodView, relative = true): number[] {
  return relative ? rowRelativeValues(view) : view.values.slice();
}

/** the cell under a point in cell units, for the hover read-out; null outside the grid */
export function cellAt(view: LikelihoodView, values: readonly number[], x: number, y: number): { time: number; position: number; value: number } | null {
  const r = Math.round(x);
  const c = Math.round(y);
  if (!(r >= 0 && r < view.rows && c >= 0 && c < view.cols)) return null;
  return { time: view.time[r]!, position: view.binCenters[c]!, value: values[r * view.cols + c]! };
}

function imageSeries(view: LikelihoodView, options: LikelihoodOptions): CustomSeriesOption {
  const image = options.image;
  return {
    type: 'custom',
    id: 'heatmap',
    name: 'heatmap',
    silent: true,
    z: 1,
    data: [[0, 0]],
    markArea: selectionArea(view, options.selection),
    markLine: rowMarkLines(view, options.rowMarks),
    renderItem: (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
      if (image === undefined) return null;
      const [x0, y0] = api.coord([-0.5, view.cols - 0.5]) as [number, number];
      const [x1, y1] = api.coord([view.rows - 0.5, -0.5]) as [number, number];
      const area = params.coordSys as unknown as { x: number; y: number; width: number; height: number };
      return {
        type: 'image',
        style: { image: image as string, x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
        clipPath: { type: 'rect', shape: { x: area.x, y: area.y, width: area.width, height: area.height } },
      } as CustomSeriesRenderItemReturn;
    },
  };
}

/** an axis over cells with round ticks: only the listed positions get a tick and a label */
export function cellAxis(centers: readonly number[], options: CellTickOptions) {
  // the step's decimals on every label: a tick at 1748.5 s must not read 1749, and 4.3 must read
  // 4.30 beside 4.32
  const ticks = cellTicks(centers, fractionalIndex, (v, decimals) => (decimals === null ? formatNumber(v, 8) : v.toFixed(decimals)), options);
  const labelAt = (v: number): string => {
    const k = ticks.positions.findIndex((p) => Math.abs(p - v) < 1e-6);
    return k >= 0 ? ticks.labels[k]! : '';
  };
  return {
    axisTick: { customValues: ticks.positions },
    axisLabel: { customValues: ticks.positions, formatter: labelAt },
  };
}

export function likelihoodHeatmapOption(view: LikelihoodView, options: LikelihoodOptions = {}): EChartsOption {
  const relative = options.relative ?? true;
  const [lo, hi] = options.range ?? colorRange(likelihoodValues(view, relative));
  const lines: LineSeriesOption[] = [overlayLine(view, 'decoded position (argmax)', view.decodedPosition, DECODED_COLOR, false)];
  if (view.truePosition) lines.push(overlayLine(view, 'true position', view.truePosition, TRUE_COLOR, true));
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, data: lines.map((s) => s.name as string) },
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) => {
        const params = p as { seriesName?: string; data?: { position?: number; time?: number } };
        return `${params.seriesName}<br/>t = ${formatNumber(params.data?.time)} s · position ${formatNumber(params.data?.position)}`;
      },
    },
    grid: { left: 70, right: 110, top: 40, bottom: 60 },
    xAxis: {
      type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 32, min: -0.5, max: view.rows - 0.5,
      ...cellAxis(view.time, { target: 10 }), splitLine: { show: false },
    },
    yAxis: {
      type: 'value', name: 'position (cm)', min: -0.5, max: view.cols - 0.5,
      ...cellAxis(view.binCenters, { target: 10, halfCells: true }), splitLine: { show: false },
    },
    // a colour bar only: the colours are in the image, no series is mapped through it
    visualMap: {
      type: 'continuous',
      seriesIndex: [],
      min: lo,
      max: hi,
      right: 0,
      top: 'middle',
      calculable: false,
      precision: 1,
      text: [relative ? '0 = row max' : formatNumber(hi, 3), formatNumber(lo, 3)],
      inRange: { color: [...VIRIDIS] },
    },
    series: [imageSeries(view, options), ...lines],
  };
}
