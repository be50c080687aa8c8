/**
 * The detector's state probabilities under the posterior heatmap: one line per state over the same
 * displayed rows and with the same margins, so a time lines up across both charts; the threshold
 * on P(non-local) dashed, and the non-local periods as the same bands as on the heatmap.
 */
import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { PosteriorView } from '../../../shared/posteriorView';
import { formatNumber } from '../lib/format';
import { escapeHtml } from './palette';
import { cellAxis } from './likelihoodHeatmapOption';
import { periodBands, PERIOD_EDGE } from './posteriorHeatmapOption';
import { CURSOR_EDGE } from './positionTrackOption';

/** one colour per state, apart from the period orange and from each other for colour-blind readers */
const STATE_COLORS: Readonly<Record<string, string>> = {
  Local: '#0072b2',
  'No-Spike': '#999999',
  'Non-Local Continuous': '#d55e00',
  'Non-Local Fragmented': '#cc79a7',
};
const FALLBACK_COLORS = ['#009e73', '#56b4e9', '#e69f00', '#000000'];

export interface StateTrackOptions {
  threshold: number;
  bands?: readonly (readonly [number, number])[];
  selection?: readonly [number, number] | null;
  /** the displayed row of the 2-D view's cursor, drawn as a line; absent or null: none */
  cursor?: number | null;
}

function cursorLine(cursor: number | null | undefined): LineSeriesOption {
  return {
    type: 'line', name: 'cursor', data: [], silent: true,
    markLine: {
      silent: true, symbol: ['none', 'none'], label: { show: false }, lineStyle: { color: CURSOR_EDGE, width: 2, type: 'solid' },
      data: cursor === null || cursor === undefined ? [] : [{ xAxis: cursor }],
    },
  };
}

function stateLine(view: PosteriorView, state: string, i: number): LineSeriesOption {
  const color = STATE_COLORS[state] ?? FALLBACK_COLORS[i % FALLBACK_COLORS.length]!;
  const values = view.stateProbabilities?.[i] ?? [];
  return {
    type: 'line',
    name: state,
    showSymbol: values.length === 1,
    connectNulls: false,
    lineStyle: { color, width: 1.5 },
    itemStyle: { color },
    data: values.map((p, r) => [r, Number.isFinite(p) ? p : '-']),
  };
}

export function stateTrackOption(view: PosteriorView, options: StateTrackOptions): EChartsOption {
  const lines = view.states.map((s, i) => stateLine(view, s, i));
  const nonLocal: LineSeriesOption = {
    type: 'line',
    name: 'P(non-local)',
    showSymbol: false,
    lineStyle: { color: PERIOD_EDGE, width: 1, type: 'dotted' },
    itemStyle: { color: PERIOD_EDGE },
    data: (view.nonLocalProbability ?? []).map((p, r) => [r, Number.isFinite(p) ? p : '-']),
    markArea: periodBands(options.bands ?? []),
    markLine: {
      silent: true,
      symbol: ['none', 'none'],
      lineStyle: { color: PERIOD_EDGE, type: 'dashed', width: 1 },
      label: { formatter: `threshold ${formatNumber(options.threshold, 3)}`, position: 'insideEndTop', color: PERIOD_EDGE },
      data: [{ yAxis: options.threshold }],
    },
  };
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, data: [...view.states, 'P(non-local)'] },
    tooltip: {
      trigger: 'axis',
      formatter: (p: unknown) => {
        const items = p as { seriesName?: string; data?: [number, number | string]; marker?: string }[];
        const r = items[0]?.data?.[0] ?? 0;
        const head = `t = ${formatNumber(view.time[r])} s`;
        return [head, ...items.map((it) => `${it.marker ?? ''}${escapeHtml(it.seriesName ?? '')}: ${typeof it.data?.[1] === 'number' ? formatNumber(it.data[1], 3) : '–'}`)].join('<br/>');
      },
    },
    // the heatmap's margins, so the two time axes line up
    grid: { left: 70, right: 110, top: 40, bottom: 50 },
    xAxis: {
      type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 30, min: -0.5, max: view.rows - 0.5,
      ...cellAxis(view.time, { target: 10 }), splitLine: { show: false },
    },
    // quarters: a tick at 0.9 beside the top one at 1 would print one label over the other
    yAxis: { type: 'value', name: 'state probability', min: 0, max: 1, interval: 0.25 },
    series: options.cursor === undefined ? [...lines, nonLocal] : [...lines, nonLocal, cursorLine(options.cursor)],
  };
}
