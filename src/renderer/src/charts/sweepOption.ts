/**
 * A sweep's curves: one line per strategy, time against the swept size on log-log axes (a power
 * law is a straight line there, its slope the exponent the legend states), each point with its
 * bootstrap 95 % interval as a whisker, and the crossovers of the total time as vertical lines
 * named with the size where the fastest strategy changes (dashed when the intervals do not
 * separate the two). The ticks sit at the values swept, not at powers of ten, so each point can
 * be read off its axis. Points carry no run id: the view finds a clicked point's run by its value.
 */
import type { CustomSeriesOption, EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import { formatMs } from '../../../shared/format';
import {
  formatSweepValue, sweepPointText, SWEEP_VARIABLE_TEXT, type SweepCrossover, type SweepPoint, type SweepResult, type SweepSeries,
} from '../../../shared/sweep';
import { colorForIndex, escapeHtml } from './palette';

/** the series name of the crossover markers and lines */
export const CROSSOVER_SERIES = 'crossover';
const WHISKER_HALF_PX = 5;

export interface SweepChartPoint {
  strategy: string;
  strategyIndex: number;
  value: number;
  point: SweepPoint;
}

/** The metrics of a sweep that some strategy has, in the sweep's order (total, encode, decode, the engine's stages). */
export function sweepMetrics(sweep: SweepResult): string[] {
  const present = new Set(sweep.strategies.flatMap((s) => s.series.map((x) => x.metric)));
  return sweep.metrics.filter((m) => present.has(m));
}

function seriesOf(sweep: SweepResult, strategyIndex: number, metric: string): SweepSeries | undefined {
  return sweep.strategies[strategyIndex]?.series.find((x) => x.metric === metric);
}

/** Every point of the metric that can sit on log axes (a positive time), per strategy in order. */
export function sweepChartPoints(sweep: SweepResult, metric: string): SweepChartPoint[] {
  const out: SweepChartPoint[] = [];
  sweep.strategies.forEach((s, strategyIndex) => {
    seriesOf(sweep, strategyIndex, metric)?.points.forEach((point, i) => {
      const value = sweep.values[i]!;
      if (point && point.ms > 0 && value > 0) out.push({ strategy: s.strategy, strategyIndex, value, point });
    });
  });
  return out;
}

/** the run of the point at a value of the sweep (what a click opens); null when that value has none */
export function runIdAt(sweep: SweepResult, value: number): string | null {
  const i = sweep.values.indexOf(value);
  return i < 0 ? null : (sweep.runIds[i] ?? null);
}

/** Ticks for a log axis over [lo, hi]: 1-2-5 per decade, or finer when that leaves fewer than three. */
export function logTicks(lo: number, hi: number): number[] {
  const pick = (mantissas: number[]): number[] => {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of mantissas) {
        const v = Number((m * 10 ** e).toPrecision(6));
        if (v >= lo && v <= hi) out.push(v);
      }
    }
    return out;
  };
  const coarse = pick([1, 2, 5]);
  return coarse.length >= 3 ? coarse : pick([1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9]);
}

const ONE_TWO_FIVE = [1, 2, 5];

/** [lo, hi] widened to the 1-2-5 steps just outside it, so the axis ends on a labelled tick */
export function niceLogBounds(lo: number, hi: number): [number, number] {
  const steps = (e: number): number[] => ONE_TWO_FIVE.map((m) => Number((m * 10 ** e).toPrecision(6)));
  const below = steps(Math.floor(Math.log10(lo)) - 1).concat(steps(Math.floor(Math.log10(lo)))).filter((v) => v <= lo);
  const above = steps(Math.floor(Math.log10(hi))).concat(steps(Math.floor(Math.log10(hi)) + 1)).filter((v) => v >= hi);
  return [Math.max(...below), Math.min(...above)];
}

function tooltipOf(p: SweepChartPoint, sweep: SweepResult, statistic: SweepSeries['statistic']): string {
  const runId = runIdAt(sweep, p.value);
  const interval = p.point.ci95 ? `<br/>95 % CI ${formatMs(p.point.ci95[0])} – ${formatMs(p.point.ci95[1])}` : '';
  return (
    `<b>${escapeHtml(p.strategy)}</b> at ${formatSweepValue(p.value)} ${escapeHtml(SWEEP_VARIABLE_TEXT[sweep.vary])}<br/>` +
    `${statistic} ${sweepPointText(p.point)} over ${p.point.n} repeats${interval}` +
    (runId ? `<br/>run ${escapeHtml(runId)}: click to open its results` : '')
  );
}

function lineSeries(sweep: SweepResult, points: SweepChartPoint[], strategy: string, index: number, statistic: SweepSeries['statistic']): LineSeriesOption {
  const mine = points.filter((p) => p.strategyIndex === index);
  return {
    type: 'line',
    name: strategy,
    color: colorForIndex(index),
    data: mine.map((p) => [p.value, p.point.ms]),
    symbol: 'circle',
    symbolSize: 9,
    lineStyle: { width: 2 },
    emphasis: { focus: 'series', scale: 1.4 },
    cursor: 'pointer',
    tooltip: { formatter: (params) => tooltipOf(mine[(params as { dataIndex: number }).dataIndex]!, sweep, statistic) },
    z: 3,
  };
}

/** The interval of each point as a vertical whisker with caps, in the strategy's colour. */
function whiskerSeries(points: SweepChartPoint[], strategy: string, index: number): CustomSeriesOption {
  const color = colorForIndex(index);
  const mine = points.filter((p) => p.strategyIndex === index && p.point.ci95);
  return {
    type: 'custom',
    // the strategy's name: its legend entry shows and hides the whiskers with the line
    name: strategy,
    color,
    silent: true,
    data: mine.map((p) => [p.value, p.point.ci95![0], p.point.ci95![1]]),
    encode: { x: 0, y: [1, 2] },
    renderItem: (_params, api) => {
      const top = api.coord([api.value(0), api.value(2)]);
      const bottom = api.coord([api.value(0), api.value(1)]);
      const style = { stroke: color, lineWidth: 1.5 };
      const [x, yTop, yBottom] = [top[0]!, top[1]!, bottom[1]!];
      const w = WHISKER_HALF_PX;
      return {
        type: 'group',
        children: [
          { type: 'line', shape: { x1: x, y1: yTop, x2: x, y2: yBottom }, style },
          { type: 'line', shape: { x1: x - w, y1: yTop, x2: x + w, y2: yTop }, style },
          { type: 'line', shape: { x1: x - w, y1: yBottom, x2: x + w, y2: yBottom }, style },
        ],
      };
    },
    z: 2,
  };
}

export function crossoverLabel(c: SweepCrossover): string {
  return `${c.to} from ≈ ${formatSweepValue(c.at ?? Number.NaN)}${c.significant ? '' : ' (not significant)'}`;
}

/** A marker where the two lines cross, and a vertical line there named with the value. */
function crossoverSeries(crossovers: SweepCrossover[]): ScatterSeriesOption {
  const placed = crossovers.filter((c) => c.at !== null && c.atMs !== null);
  return {
    type: 'scatter',
    name: CROSSOVER_SERIES,
    color: '#555555',
    symbol: 'diamond',
    symbolSize: 12,
    data: placed.map((c) => [c.at!, c.atMs!]),
    tooltip: { formatter: (params) => escapeHtml(placed[(params as { dataIndex: number }).dataIndex]!.text) },
    markLine: {
      symbol: 'none',
      silent: true,
      animation: false,
      data: placed.map((c) => ({
        xAxis: c.at!,
        name: crossoverLabel(c),
        lineStyle: { color: '#555555', width: 1.5, type: c.significant ? 'solid' : 'dashed' },
        label: { formatter: crossoverLabel(c), position: 'insideEndTop', fontSize: 11 },
      })),
    },
    z: 4,
  };
}

function extent(points: SweepChartPoint[], pick: (p: SweepChartPoint) => [number, number]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    const [a, b] = pick(p);
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  return [lo, hi];
}

function slopeText(sweep: SweepResult, strategy: string, metric: string): string {
  const slope = sweep.strategies.find((s) => s.strategy === strategy)?.series.find((x) => x.metric === metric)?.slope;
  if (!slope) return strategy;
  return slope.fixedCostDominates ? `${strategy} · fixed cost` : `${strategy} · slope ${slope.exponent.toFixed(2)}`;
}

/** The chart of one metric of a sweep; null when no point of it can be drawn. */
export function sweepOption(sweep: SweepResult, metric = 'total'): EChartsOption | null {
  const points = sweepChartPoints(sweep, metric);
  if (points.length === 0) return null;
  const statistic = sweep.strategies.flatMap((s) => s.series).find((x) => x.metric === metric)?.statistic ?? 'median';
  const crossovers = metric === 'total' ? sweep.crossovers : [];
  const [xLo, xHi] = extent(points, (p) => [p.value, p.value]);
  const [yLo, yHi] = extent(points, (p) => [p.point.ci95?.[0] ?? p.point.ms, p.point.ci95?.[1] ?? p.point.ms]);
  const [yMin, yMax] = niceLogBounds(yLo / 1.1, yHi * 1.1);
  const names = sweep.strategies.map((s) => s.strategy);
  const series: EChartsOption['series'] = [
    ...names.flatMap((name, i) => [lineSeries(sweep, points, name, i, statistic), whiskerSeries(points, name, i)]),
    ...(crossovers.length > 0 ? [crossoverSeries(crossovers)] : []),
  ];
  const ticks = logTicks(yMin, yMax);
  return {
    animation: false,
    grid: { left: 72, right: 32, top: 56, bottom: 56 },
    legend: { top: 8, data: [...names, ...(crossovers.length > 0 ? [CROSSOVER_SERIES] : [])], formatter: (name: string) => slopeText(sweep, name, metric) },
    tooltip: { trigger: 'item', confine: true },
    xAxis: {
      type: 'log',
      name: SWEEP_VARIABLE_TEXT[sweep.vary],
      nameLocation: 'middle',
      nameGap: 30,
      min: xLo / 1.2,
      max: xHi * 1.2,
      axisLabel: { customValues: [...sweep.values], formatter: (v: number) => formatSweepValue(v) },
      axisTick: { customValues: [...sweep.values] },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'log',
      name: statistic === 'median' ? `${metric} time, median with 95 % CI` : `${metric} time per repeat (mean)`,
      nameLocation: 'middle',
      nameGap: 58,
      min: yMin,
      max: yMax,
      axisLabel: { customValues: ticks, formatter: (v: number) => formatMs(v) },
      axisTick: { customValues: ticks },
      splitLine: { show: true, lineStyle: { opacity: 0.35 } },
    },
    series,
  };
}
