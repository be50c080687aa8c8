/**
 * The roofline chart, as Nsight Compute and Intel Advisor draw it: arithmetic intensity
 * (FLOP/byte) against achieved GFLOP/s on log-log axes, the backend's calibrated ceilings (the
 * matmul peak flat, the memory bandwidth as the slope up to it, exp and log throughput flat), and
 * one point per strategy and stage: the strategy's colour, the stage's shape. How far a point sits
 * below the roof is how far that stage is from what the hardware does on that kind of work.
 *
 * Stages are told apart by shape, not by a label beside each point: the elementwise stages of every
 * strategy sit within a few hundredths of a decade of each other, where labels can only collide.
 * The stage's name shows on hover, and the view lists the shapes (rooflineStageKey).
 */
import type { EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { Calibration, RooflineCeiling, RooflineReportPart, StageRoofline } from '../../../shared/roofline';
import { formatMs } from '../../../shared/format';
import { formatNumber } from '../lib/format';
import { colorForIndex, escapeHtml, SEVERITY_COLORS } from './palette';

export interface RooflinePoint {
  strategy: string;
  /** index in the report's strategy list: the strategy's colour everywhere */
  strategyIndex: number;
  stage: StageRoofline;
}

export interface RooflineCeilingLine {
  kind: RooflineCeiling;
  name: string;
  /** [arithmetic intensity, GFLOP/s] end points */
  points: [number, number][];
  color: string;
}

/** ceiling colours apart from the strategies' palette, each readable on the light and the dark theme */
const CEILING_COLORS = { matmul: '#d62728', memory: '#a86b4f', exp: '#9467bd', log: '#17becf' } as const;

export interface StageSymbol {
  /** an ECharts symbol: a built-in name or a `path://` outline */
  symbol: string;
  /** the same shape as text, for a key outside the canvas */
  glyph: string;
}

/** Six shapes a reader tells apart at 12 px, in the engine's stage order. */
const SYMBOLS: readonly StageSymbol[] = [
  { symbol: 'circle', glyph: '●' },
  { symbol: 'rect', glyph: '■' },
  { symbol: 'triangle', glyph: '▲' },
  { symbol: 'diamond', glyph: '◆' },
  { symbol: 'path://M0,0L10,0L5,10Z', glyph: '▼' },
  { symbol: 'path://M3.5,0H6.5V3.5H10V6.5H6.5V10H3.5V6.5H0V3.5H3.5Z', glyph: '✚' },
  { symbol: 'path://M5,0L6.2,3.6H10L6.9,5.9L8.1,9.5L5,7.3L1.9,9.5L3.1,5.9L0,3.6H3.8Z', glyph: '★' },
];
/**
 * The engine's stages in pipeline order, each with the shape (an index into SYMBOLS) it keeps from
 * run to run; any other stage takes a shape none of them uses.
 */
const KNOWN_STAGES: readonly (readonly [stage: string, symbol: number])[] = [
  ['occupancy', 0], ['ground-process', 1], ['position-kernel', 2], ['series-factor', 6], ['mark-kernel', 3], ['reduce', 4], ['scatter', 5],
];
const knownSymbol = new Map(KNOWN_STAGES);

export type StageKeyEntry = { stage: string } & StageSymbol;

/** The shape of every stage in the points: the engine's stages in its order, then others as they appear. */
export function rooflineStageKey(points: readonly RooflinePoint[]): StageKeyEntry[] {
  const present = new Set(points.map((p) => p.stage.stage));
  const known = KNOWN_STAGES.filter(([s]) => present.has(s));
  const other = [...present].filter((s) => !knownSymbol.has(s));
  const taken = new Set(known.map(([, symbol]) => symbol));
  const free = SYMBOLS.map((_, i) => i).filter((i) => !taken.has(i));
  return [
    ...known.map(([stage, symbol]) => ({ stage, ...SYMBOLS[symbol]! })),
    ...other.map((stage, k) => ({ stage, ...SYMBOLS[free.length > 0 ? free[k % free.length]! : k % SYMBOLS.length]! })),
  ];
}

const positive = (v: number): boolean => Number.isFinite(v) && v > 0;

/** Stages that can sit on log axes (positive intensity and rate), in report order. */
export function rooflinePoints(report: RooflineReportPart): RooflinePoint[] {
  const out: RooflinePoint[] = [];
  report.strategies.forEach((s, strategyIndex) => {
    for (const stage of s.roofline?.stages ?? []) {
      if (positive(stage.arithmeticIntensity) && positive(stage.achievedGflops)) out.push({ strategy: s.strategy, strategyIndex, stage });
    }
  });
  return out;
}

/** The powers of ten just around [lo, hi] (a decade at least). */
export function decadeRange(lo: number, hi: number): [number, number] {
  const bottom = Math.floor(Math.log10(lo));
  return [10 ** bottom, 10 ** Math.max(bottom + 1, Math.ceil(Math.log10(hi)))];
}

const rate = (v: number): string => formatNumber(v, 3);

/** The calibrated ceilings over the intensity range [xMin, xMax]. */
export function rooflineCeilings(c: Calibration, xMin: number, xMax: number): RooflineCeilingLine[] {
  const lines: RooflineCeilingLine[] = [];
  const peak = c.matmulGflops;
  if (positive(peak)) {
    lines.push({ kind: 'matmul', name: `matmul peak ${rate(peak)} GFLOP/s`, points: [[xMin, peak], [xMax, peak]], color: CEILING_COLORS.matmul });
  }
  const bw = c.bandwidthGBps;
  if (bw !== undefined && positive(bw)) {
    // the slope rises until it meets the matmul peak (the ridge point), or to the right edge
    const ridge = positive(peak) ? Math.min(xMax, Math.max(xMin, peak / bw)) : xMax;
    lines.push({ kind: 'memory', name: `memory ${rate(bw)} GB/s`, points: [[xMin, bw * xMin], [ridge, bw * ridge]], color: CEILING_COLORS.memory });
  }
  if (positive(c.expGelemsPerS)) {
    lines.push({ kind: 'exp', name: `exp ${rate(c.expGelemsPerS)} G/s`, points: [[xMin, c.expGelemsPerS], [xMax, c.expGelemsPerS]], color: CEILING_COLORS.exp });
  }
  if (positive(c.logGelemsPerS)) {
    lines.push({ kind: 'log', name: `log ${rate(c.logGelemsPerS)} G/s`, points: [[xMin, c.logGelemsPerS], [xMax, c.logGelemsPerS]], color: CEILING_COLORS.log });
  }
  return lines;
}

function pointTooltip(p: RooflinePoint): string {
  const s = p.stage;
  return (
    `<b>${escapeHtml(p.strategy)}</b> · ${escapeHtml(s.stage)}<br/>` +
    `${rate(s.achievedGflops)} of ${rate(s.peakGflops)} GFLOP/s (${formatNumber(100 * s.fractionOfPeak, 3)} % of peak, ${s.ceiling} ceiling)<br/>` +
    `${formatNumber(s.arithmeticIntensity, 3)} FLOP/byte · ${formatNumber(s.flops, 3)} FLOP in ${formatMs(s.timeMs)} over ${s.calls} calls`
  );
}

/** The slope's first point inside the chart: it may start below the bottom of the rate axis. */
function visibleStart(line: RooflineCeilingLine, yMin: number): [number, number] {
  const [x0, y0] = line.points[0]!;
  const [x1, y1] = line.points[1]!;
  if (y0 >= yMin || y1 <= yMin) return [x0, y0];
  // straight on log axes: where it crosses yMin, interpolated in log space
  const t = Math.log(yMin / y0) / Math.log(y1 / y0);
  return [x0 * (x1 / x0) ** t, yMin];
}

/**
 * The bandwidth slope, named halfway along its visible part (in log space, where it is straight)
 * and above it, out of the way of the points under the roof. At its upper end the name would sit
 * on the matmul peak and read as that line's.
 */
function slopeData(l: RooflineCeilingLine, yMin: number): LineSeriesOption['data'] {
  const start = visibleStart(l, yMin);
  const end = l.points[1]!;
  const middle: [number, number] = [Math.sqrt(start[0] * end[0]), Math.sqrt(start[1] * end[1])];
  return [start, { value: middle, label: { show: true, position: 'top', align: 'right', formatter: l.name, color: l.color } }, end];
}

/**
 * The roof itself (matmul peak, bandwidth slope) solid, the transcendental ceilings dashed, each
 * named on the chart, so the legend is left to the strategies. The flat ones are named at their
 * right end, as the profilers do; exp and log often sit close together, so the lower one is named
 * under its line.
 */
function ceilingSeries(calibration: Calibration, ceilings: RooflineCeilingLine[], yMin: number): LineSeriesOption[] {
  const lowerTranscendental: RooflineCeiling = calibration.expGelemsPerS <= calibration.logGelemsPerS ? 'exp' : 'log';
  return ceilings.map((l) => {
    if (l.kind === 'memory') return ceilingLine(l, slopeData(l, yMin));
    const position = l.kind === lowerTranscendental ? 'bottom' : 'top';
    return ceilingLine(l, [l.points[0]!, { value: l.points[1]!, label: { show: true, position, align: 'right', formatter: l.name, color: l.color } }]);
  });
}

function ceilingLine(l: RooflineCeilingLine, data: LineSeriesOption['data']): LineSeriesOption {
  return {
    type: 'line',
    name: l.name,
    data,
    // no visible symbol, but a symbol all the same: a line without one draws no label either
    symbolSize: 0,
    showSymbol: true,
    silent: true,
    // reference lines: drawn at once, not swept in like data
    animation: false,
    color: l.color,
    lineStyle: { color: l.color, width: 1.5, type: l.kind === 'matmul' || l.kind === 'memory' ? 'solid' : 'dashed' },
    z: 1,
  };
}

/**
 * One scatter series per strategy, in its colour, each point in its stage's shape and named after
 * its stage: the name shows beside the point on hover. A light edge keeps coinciding points apart.
 */
function strategySeries(points: RooflinePoint[], key: readonly StageKeyEntry[]): ScatterSeriesOption[] {
  const symbolOf = new Map(key.map((k) => [k.stage, k.symbol]));
  const strategies = [...new Map(points.map((p) => [p.strategyIndex, p.strategy])).entries()];
  return strategies.map(([index, strategy]) => {
    const mine = points.filter((p) => p.strategyIndex === index);
    return {
      type: 'scatter',
      name: strategy,
      color: colorForIndex(index),
      symbolSize: 11,
      itemStyle: { borderColor: '#ffffff', borderWidth: 1, opacity: 0.85 },
      data: mine.map((p) => ({
        value: [p.stage.arithmeticIntensity, p.stage.achievedGflops], name: p.stage.stage, symbol: symbolOf.get(p.stage.stage)!,
      })),
      label: { show: false, position: 'right', formatter: '{b}', fontSize: 11 },
      emphasis: { label: { show: true }, scale: 1.3 },
      labelLayout: { hideOverlap: true },
      tooltip: { formatter: (params) => pointTooltip(mine[(params as { dataIndex: number }).dataIndex]!) },
      z: 3,
    };
  });
}

/** The chart, or null when the report has no calibration or no stage to place. */
export function rooflineOption(report: RooflineReportPart): EChartsOption | null {
  const calibration = report.environment.calibration;
  const points = rooflinePoints(report);
  if (!calibration || points.length === 0) return null;
  const intensities = points.map((p) => p.stage.arithmeticIntensity);
  const ridge = calibration.bandwidthGBps ? calibration.matmulGflops / calibration.bandwidthGBps : undefined;
  const [xMin, xMax] = decadeRange(Math.min(...intensities, ridge ?? Infinity), Math.max(...intensities, ridge ?? 0));
  // the flat ceilings and the points set the height; the bandwidth slope may leave it at the bottom
  const flat = [calibration.matmulGflops, calibration.expGelemsPerS, calibration.logGelemsPerS];
  const rates = [...points.map((p) => p.stage.achievedGflops), ...flat].filter(positive);
  const [yMin, yMax] = decadeRange(Math.min(...rates), Math.max(...rates));
  const strategies = strategySeries(points, rooflineStageKey(points));
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 40, top: 48, bottom: 56 },
    legend: { top: 4, type: 'scroll', icon: 'circle', data: strategies.map((series) => String(series.name)) },
    tooltip: { trigger: 'item' },
    xAxis: {
      type: 'log', name: 'arithmetic intensity (FLOP/byte)', nameLocation: 'middle', nameGap: 30, min: xMin, max: xMax,
      axisLabel: { formatter: (v: number) => formatNumber(v, 3) },
    },
    yAxis: {
      type: 'log', name: 'achieved GFLOP/s', nameLocation: 'middle', nameGap: 50, min: yMin, max: yMax,
      axisLabel: { formatter: (v: number) => formatNumber(v, 3) },
      splitLine: { lineStyle: { color: SEVERITY_COLORS.neutral, opacity: 0.25 } },
    },
    series: [...ceilingSeries(calibration, rooflineCeilings(calibration, xMin, xMax), yMin), ...strategies],
  };
}
