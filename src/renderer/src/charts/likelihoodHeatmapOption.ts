/**
 * The decoded log likelihood as a time × position heatmap, with the decoded position (argmax) and
 * the true position drawn over it. The heatmap uses category axes (one cell per row and bin); the
 * lines sit on a second grid laid exactly over the first with hidden value axes in "cell index"
 * units, and positions are mapped to fractional bin indices, so they line up even where bins or
 * rows are not evenly spaced.
 */
import type { EChartsOption, HeatmapSeriesOption, LineSeriesOption } from 'echarts';
import type { LikelihoodView } from '../../../shared/api';
import { formatNumber } from '../lib/format';

/** below this share of values the colour scale saturates, so a few floor values do not wash out the rest */
export const LOW_PERCENTILE = 0.02;
const MAX_SCALE_SAMPLES = 100_000;

/** the index, fractional between neighbours, where v falls in ascending centres; null for NaN */
export function fractionalIndex(centers: readonly number[], v: number): number | null {
  if (!Number.isFinite(v) || centers.length === 0) return null;
  const n = centers.length;
  if (n === 1) return 0;
  if (v <= centers[0]!) return Math.max(-0.5, (v - centers[0]!) / (centers[1]! - centers[0]! || 1));
  if (v >= centers[n - 1]!) return Math.min(n - 0.5, n - 1 + (v - centers[n - 1]!) / (centers[n - 1]! - centers[n - 2]! || 1));
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (centers[mid]! <= v) lo = mid;
    else hi = mid;
  }
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

export function heatmapCells(view: LikelihoodView, values: readonly number[] = view.values): (number | string)[][] {
  const out: (number | string)[][] = [];
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.cols; c++) {
      const v = values[r * view.cols + c]!;
      // '-' is ECharts' empty value: -Infinity (probability zero) leaves the cell blank
      out.push([r, c, Number.isFinite(v) ? v : '-']);
    }
  }
  return out;
}

function overlayLine(view: LikelihoodView, name: string, positions: readonly number[], color: string, dashed: boolean): LineSeriesOption {
  return {
    type: 'line',
    name,
    xAxisIndex: 1,
    yAxisIndex: 1,
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

/** every n-th category label, so at most about `max` labels share an axis */
export const labelInterval = (count: number, max: number): number => Math.max(0, Math.ceil(count / max) - 1);

export interface LikelihoodOptions {
  /** show each row relative to its maximum (default) or the raw log likelihood */
  relative?: boolean;
}

export const DECODED_COLOR = '#ff3b30';
export const TRUE_COLOR = '#00d5ff';

export function likelihoodHeatmapOption(view: LikelihoodView, options: LikelihoodOptions = {}): EChartsOption {
  const relative = options.relative ?? true;
  const values = relative ? rowRelativeValues(view) : view.values;
  const [lo, hi] = colorRange(values);
  const valueName = relative ? 'log likelihood − row max' : 'log likelihood';
  const grid = { left: 70, right: 100, top: 40, bottom: 60 };
  const heat: HeatmapSeriesOption = { type: 'heatmap', name: valueName, data: heatmapCells(view, values), progressive: 20_000 };
  const series: (HeatmapSeriesOption | LineSeriesOption)[] = [heat, overlayLine(view, 'decoded position (argmax)', view.decodedPosition, DECODED_COLOR, false)];
  if (view.truePosition) series.push(overlayLine(view, 'true position', view.truePosition, TRUE_COLOR, true));
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, data: series.slice(1).map((s) => s.name as string) },
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) => {
        const params = p as { seriesType?: string; seriesName?: string; data?: unknown };
        if (params.seriesType === 'heatmap' && Array.isArray(params.data)) {
          const [r, c, v] = params.data as [number, number, number | string];
          return `t = ${formatNumber(view.time[r])} s · position ${formatNumber(view.binCenters[c])}<br/>${valueName} ${typeof v === 'number' ? formatNumber(v) : '−∞'}`;
        }
        const d = params.data as { position?: number; time?: number } | undefined;
        return `${params.seriesName}<br/>t = ${formatNumber(d?.time)} s · position ${formatNumber(d?.position)}`;
      },
    },
    grid: [grid, { ...grid }],
    xAxis: [
      {
        type: 'category', gridIndex: 0, name: 'time (s)', nameLocation: 'middle', nameGap: 32,
        data: view.time.map((t) => formatNumber(t)), axisLabel: { interval: labelInterval(view.rows, 12) },
      },
      { type: 'value', gridIndex: 1, min: -0.5, max: view.rows - 0.5, show: false },
    ],
    yAxis: [
      { type: 'category', gridIndex: 0, name: 'position', data: view.binCenters.map((b) => formatNumber(b)), axisLabel: { interval: labelInterval(view.cols, 16) } },
      { type: 'value', gridIndex: 1, min: -0.5, max: view.cols - 0.5, show: false },
    ],
    visualMap: {
      type: 'continuous',
      seriesIndex: 0,
      min: lo,
      max: hi,
      right: 0,
      top: 'middle',
      calculable: true,
      precision: 1,
      text: [relative ? '0 = row max' : 'high', 'low'],
      // viridis: ordered in lightness, readable in both themes and by colour-blind readers
      inRange: { color: ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'] },
    },
    series,
  };
}
