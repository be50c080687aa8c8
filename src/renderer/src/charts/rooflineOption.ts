/**
 * The roofline chart, as Nsight Compute and Intel Advisor draw it: arithmetic intensity
 * (FLOP/byte) against achieved GFLOP/s on log-log axes, the backend's calibrated ceilings (the
 * matmul peak flat, the memory bandwidth as the slope up to it, exp and log throughput flat), and
 * one labelled point per strategy and stage in the strategy's colour. How far a point sits below
 * the roof is how far that stage is from what the hardware does on that kind of work.
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

const CEILING_COLORS = { matmul: '#d62728', memory: '#8c564b', exp: '#9467bd', log: '#17becf' } as const;

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

/**
 * The roof itself (matmul peak, bandwidth slope) solid, the transcendental ceilings dashed, each
 * named at its right end as the profilers do, so the legend is left to the strategies. Exp and
 * log often sit close together: the lower one is named under its line.
 */
function ceilingSeries(calibration: Calibration, ceilings: RooflineCeilingLine[]): LineSeriesOption[] {
  const lowerTranscendental: RooflineCeiling = calibration.expGelemsPerS <= calibration.logGelemsPerS ? 'exp' : 'log';
  return ceilings.map((l) => ({
    type: 'line',
    name: l.name,
    data: [
      l.points[0]!,
      {
        value: l.points[1]!,
        label: { show: true, position: l.kind === lowerTranscendental ? 'bottom' : 'top', align: 'right', formatter: l.name, color: l.color },
      },
    ],
    // no visible symbol, but a symbol all the same: a line without one draws no label either
    symbolSize: 0,
    showSymbol: true,
    silent: true,
    // reference lines: drawn at once, not swept in like data
    animation: false,
    color: l.color,
    lineStyle: { color: l.color, width: 1.5, type: l.kind === 'matmul' || l.kind === 'memory' ? 'solid' : 'dashed' },
    z: 1,
  }));
}

/** One scatter series per strategy, in its colour, each point labelled with its stage. */
function strategySeries(points: RooflinePoint[]): ScatterSeriesOption[] {
  const strategies = [...new Map(points.map((p) => [p.strategyIndex, p.strategy])).entries()];
  return strategies.map(([index, strategy]) => {
    const mine = points.filter((p) => p.strategyIndex === index);
    return {
      type: 'scatter',
      name: strategy,
      color: colorForIndex(index),
      symbolSize: 10,
      data: mine.map((p) => ({ value: [p.stage.arithmeticIntensity, p.stage.achievedGflops], name: p.stage.stage })),
      label: { show: true, position: 'right', formatter: '{b}', fontSize: 11 },
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
  const strategies = strategySeries(points);
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 40, top: 48, bottom: 56 },
    legend: { top: 4, type: 'scroll', data: strategies.map((series) => String(series.name)) },
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
    series: [...ceilingSeries(calibration, rooflineCeilings(calibration, xMin, xMax)), ...strategies],
  };
}
