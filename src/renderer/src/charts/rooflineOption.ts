/**
 * The roofline chart, as Nsight Compute and Intel Advisor draw it: arithmetic intensity
 * (FLOP/byte) against achieved GFLOP/s on log-log axes under the two roofs measured in those units
 * (the matmul peak flat, the memory bandwidth as the slope up to it), one point per strategy and
 * stage: the strategy's colour, the stage's shape. How far a point sits below the roof is how far
 * that stage is from what the hardware does on that kind of work.
 *
 * Exp and log throughput are element rates, not FLOP rates: a line in G elements/s on a GFLOP/s axis
 * compares unlike things. Stages bound by them get a panel of their own, each normalised to its own
 * ceiling (the rate its mix of exps, logs and traffic reaches at the calibrated throughputs), where
 * 100 % is the roof. A point above its roof is always named, with why it can be there.
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
import { rooflineStageKey, type StageKeyEntry } from './rooflineStageKey';

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
const CEILING_COLORS = { matmul: '#d62728', memory: '#a86b4f', own: '#9467bd' } as const;

export { rooflineStageKey, type StageKeyEntry, type StageSymbol } from './rooflineStageKey';

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

/** The roofs in GFLOP/s over the intensity range [xMin, xMax]: the matmul peak and the bandwidth slope (exp and log are element rates and have their own panel). */
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
  return lines;
}

/** Stages bound by exp or log throughput: measured in elements per second, so judged on their own panel. */
export function isElementRateBound(p: RooflinePoint): boolean {
  return p.stage.ceiling === 'exp' || p.stage.ceiling === 'log';
}

/** The roof over a point on the GFLOP/s panel: the lower of the matmul peak and the bandwidth slope at its intensity. */
function roofAt(c: Calibration, intensity: number): number {
  const bw = c.bandwidthGBps;
  return bw !== undefined && positive(bw) ? Math.min(c.matmulGflops, bw * intensity) : c.matmulGflops;
}

/** How many times its ceiling a point ran at; above 1 it sits over a roof and must say why. */
export function timesCeiling(p: RooflinePoint, c: Calibration): number {
  const own = p.stage.fractionOfPeak;
  return isElementRateBound(p) ? own : Math.max(own, p.stage.achievedGflops / roofAt(c, p.stage.arithmeticIntensity));
}

/**
 * A point can beat a calibrated roof only when less ran than the work model counts: the model has
 * every tfjs op read and write its whole tensors, and a fused kernel, data left in cache or a
 * recurrence in place of exps moves or computes less.
 */
export function aboveCeilingLabel(p: RooflinePoint, times: number): string {
  return `${p.stage.stage}: ${formatNumber(times, 2)}× its ceiling\n(less ran than the model counts: fused, cached)`;
}

function pointTooltip(p: RooflinePoint, times: number): string {
  const s = p.stage;
  const over = times > 1 ? `<br/>above its ceiling: the model counts every op's full reads and writes and each exp; fused kernels, cached data or a recurrence did less` : '';
  return (
    `<b>${escapeHtml(p.strategy)}</b> · ${escapeHtml(s.stage)}<br/>` +
    `${rate(s.achievedGflops)} of ${rate(s.peakGflops)} GFLOP/s (${formatNumber(100 * s.fractionOfPeak, 3)} % of peak, ${s.ceiling} ceiling)<br/>` +
    `${formatNumber(s.arithmeticIntensity, 3)} FLOP/byte · ${formatNumber(s.flops, 3)} FLOP in ${formatMs(s.timeMs)} over ${s.calls} calls${over}`
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
 * The bandwidth slope, named above it at the place along its visible part (straight in log space)
 * farthest from every point, so its name sits on no point and no point's label. At its upper end
 * the name would sit on the matmul peak and read as that line's.
 */
function slopeData(l: RooflineCeilingLine, yMin: number, points: readonly [number, number][]): LineSeriesOption['data'] {
  const start = visibleStart(l, yMin);
  const end = l.points[1]!;
  const along = (t: number): [number, number] => [start[0] * (end[0] / start[0]) ** t, start[1] * (end[1] / start[1]) ** t];
  const clearance = (at: [number, number]): number =>
    Math.min(Infinity, ...points.map(([x, y]) => Math.hypot(Math.log10(x / at[0]), Math.log10(y / at[1]))));
  const spot = [0.5, 0.35, 0.65, 0.2, 0.8].map(along).reduce((best, at) => (clearance(at) > clearance(best) ? at : best));
  return [start, { value: spot, label: { show: true, position: 'top', align: 'right', formatter: l.name, color: l.color } }, end];
}

/** The roof (matmul peak, bandwidth slope), each named above its line on the chart, so the legend is left to the strategies. */
function ceilingSeries(ceilings: RooflineCeilingLine[], yMin: number, points: readonly [number, number][]): LineSeriesOption[] {
  return ceilings.map((l) =>
    ceilingLine(l, l.kind === 'memory' ? slopeData(l, yMin, points) : [l.points[0]!, { value: l.points[1]!, label: { show: true, position: 'top', align: 'right', formatter: l.name, color: l.color } }], 0),
  );
}

function ceilingLine(l: Pick<RooflineCeilingLine, 'name' | 'color'> & { dashed?: boolean }, data: LineSeriesOption['data'], axis: number): LineSeriesOption {
  return {
    type: 'line',
    name: l.name,
    data,
    xAxisIndex: axis,
    yAxisIndex: axis,
    // no visible symbol, but a symbol all the same: a line without one draws no label either
    symbolSize: 0,
    showSymbol: true,
    silent: true,
    // reference lines: drawn at once, not swept in like data
    animation: false,
    color: l.color,
    lineStyle: { color: l.color, width: 1.5, type: l.dashed ? 'dashed' : 'solid' },
    z: 1,
  };
}

interface Placed {
  point: RooflinePoint;
  y: number;
  times: number;
  /** the label of a point over its ceiling; the same stage of other strategies on the same spot shares the first one's */
  label?: string;
}

/** Points this close (in decades) draw as one: one label serves them all, where two would lie on top of each other. */
const SAME_SPOT_DECADES = 0.08;

const sameSpot = (a: Placed, b: Placed): boolean =>
  a.point.stage.stage === b.point.stage.stage &&
  Math.hypot(Math.log10(a.point.stage.arithmeticIntensity / b.point.stage.arithmeticIntensity), Math.log10(a.y / b.y)) < SAME_SPOT_DECADES;

function withLabels(placed: Placed[]): Placed[] {
  const over = placed.filter((p) => p.times > 1);
  return placed.map((p) => {
    const group = over.filter((q) => sameSpot(p, q));
    return p.times > 1 && group[0] === p ? { ...p, label: aboveCeilingLabel(p.point, Math.max(...group.map((q) => q.times))) } : p;
  });
}

/**
 * One scatter series per strategy and panel, in the strategy's colour, each point in its stage's
 * shape and named after its stage on hover. A point over its ceiling keeps its label shown, and
 * labels are moved apart rather than hidden, so no such point goes unexplained.
 */
function strategySeries(placed: Placed[], key: readonly StageKeyEntry[], axis: number): ScatterSeriesOption[] {
  const symbolOf = new Map(key.map((k) => [k.stage, k.symbol]));
  const strategies = [...new Map(placed.map((p) => [p.point.strategyIndex, p.point.strategy])).entries()];
  return strategies.map(([index, strategy]) => {
    const mine = placed.filter((p) => p.point.strategyIndex === index);
    return {
      type: 'scatter',
      name: strategy,
      xAxisIndex: axis,
      yAxisIndex: axis,
      color: colorForIndex(index),
      symbolSize: 11,
      itemStyle: { borderColor: '#ffffff', borderWidth: 1, opacity: 0.85 },
      data: mine.map(({ point, y, label }) => ({
        value: [point.stage.arithmeticIntensity, y], name: point.stage.stage, symbol: symbolOf.get(point.stage.stage)!,
        ...(label ? { label: { show: true, formatter: label, color: colorForIndex(index), lineHeight: 14, verticalAlign: 'bottom' } } : {}),
      })),
      // right of the point (an explanation rises above its centre line, off the roof it beat), moved apart where two would collide
      label: { show: false, position: 'right', distance: 8, formatter: '{b}', fontSize: 11 },
      emphasis: { label: { show: true }, scale: 1.3 },
      labelLayout: { moveOverlap: 'shiftY' },
      tooltip: { formatter: (params) => { const p = mine[(params as { dataIndex: number }).dataIndex]!; return pointTooltip(p.point, p.times); } },
      z: 3,
    };
  });
}

function logAxis(name: string, range: [number, number], grid: number, percent = false): Record<string, unknown> {
  return {
    type: 'log', name, nameLocation: 'middle', nameGap: grid === 0 && !percent ? 50 : 30, min: range[0], max: range[1], gridIndex: grid,
    axisLabel: { formatter: (v: number) => (percent ? `${formatNumber(100 * v, 3)} %` : formatNumber(v, 3)) },
    splitLine: { lineStyle: { color: SEVERITY_COLORS.neutral, opacity: 0.25 } },
  };
}

/** The chart, or null when the report has no calibration or no stage to place. */
export function rooflineOption(report: RooflineReportPart): EChartsOption | null {
  const calibration = report.environment.calibration;
  const points = rooflinePoints(report);
  if (!calibration || points.length === 0) return null;
  const intensities = points.map((p) => p.stage.arithmeticIntensity);
  const ridge = calibration.bandwidthGBps ? calibration.matmulGflops / calibration.bandwidthGBps : undefined;
  const [xMin, xMax] = decadeRange(Math.min(...intensities, ridge ?? Infinity), Math.max(...intensities, ridge ?? 0));
  const key = rooflineStageKey(points);
  const flops = withLabels(points.filter((p) => !isElementRateBound(p)).map((point) => ({ point, y: point.stage.achievedGflops, times: timesCeiling(point, calibration) })));
  const elements = withLabels(points.filter(isElementRateBound).map((point) => ({ point, y: point.stage.fractionOfPeak, times: timesCeiling(point, calibration) })));
  // the matmul peak and the points set the height; the bandwidth slope may leave it at the bottom
  const [yMin, yMax] = decadeRange(...minMax([...flops.map((p) => p.y), calibration.matmulGflops].filter(positive)));
  const spots = flops.map((p): [number, number] => [p.point.stage.arithmeticIntensity, p.y]);
  const top = [ceilingSeries(rooflineCeilings(calibration, xMin, xMax), yMin, spots), strategySeries(flops, key, 0)].flat();
  const grids: Record<string, unknown>[] = [{ left: 70, right: 40, top: 48, bottom: elements.length ? '46%' : 56 }];
  const xAxes = [logAxis('arithmetic intensity (FLOP/byte)', [xMin, xMax], 0)];
  const yAxes = [logAxis('achieved GFLOP/s', [yMin, yMax], 0)];
  const series: (LineSeriesOption | ScatterSeriesOption)[] = top;
  if (elements.length) {
    grids.push({ left: 70, right: 40, top: '70%', bottom: 48 });
    xAxes.push(logAxis('arithmetic intensity (FLOP/byte), exp- and log-bound stages', [xMin, xMax], 1));
    // from 10 % at least and up to 1000 %, so the roof at 100 % has room on both sides for points and its name
    yAxes.push(logAxis('% of own ceiling', decadeRange(...minMax([...elements.map((p) => p.y), 0.1, 2].filter(positive))), 1, true));
    const own = { name: 'own ceiling: the exp/log rate of the stage\u2019s mix', color: CEILING_COLORS.own, dashed: true };
    series.push(ceilingLine(own, [{ value: [xMin, 1], label: { show: true, position: 'top', align: 'left', formatter: own.name, color: own.color } }, [xMax, 1]], 1));
    series.push(...strategySeries(elements, key, 1));
  }
  const names = [...new Set(series.filter((x) => x.type === 'scatter').map((x) => String(x.name)))];
  return {
    backgroundColor: 'transparent',
    grid: grids,
    legend: { top: 4, type: 'scroll', icon: 'circle', data: names },
    tooltip: { trigger: 'item' },
    xAxis: xAxes,
    yAxis: yAxes,
    series,
  } as EChartsOption;
}

function minMax(values: number[]): [number, number] {
  return [Math.min(...values), Math.max(...values)];
}
