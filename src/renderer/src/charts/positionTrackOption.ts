/**
 * A 2-D decode's MAP position over time as two tracks, x(t) above y(t), each with the true
 * coordinate dashed beside it; the cursor's row as a line across both, the non-local periods as
 * bands. The time axis is the state track's (the same displayed rows and margins), so a time lines
 * up from one chart to the next.
 */
import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { PosteriorView } from '../../../shared/posteriorView';
import { cellAxis, DECODED_COLOR, TRUE_COLOR } from './likelihoodHeatmapOption';
import { niceTicks } from './niceTicks';
import { periodBands } from './posteriorHeatmapOption';

export const CURSOR_COLOR = '#ffffff';
export const CURSOR_EDGE = '#ff3b30';

export interface PositionTrackOptions {
  /** the displayed row the cursor is in; null when it is outside the rows shown */
  cursor?: number | null;
  /** displayed rows [from, to) of the non-local periods */
  bands?: readonly (readonly [number, number])[];
}

const value = (v: number | undefined): number | string => (v !== undefined && Number.isFinite(v) ? v : '-');

function track(name: string, values: readonly number[] | undefined, axis: number, color: string, dashed: boolean): LineSeriesOption {
  return {
    type: 'line', name, xAxisIndex: axis, yAxisIndex: axis, showSymbol: false, connectNulls: false, silent: true,
    lineStyle: { color, width: dashed ? 1.2 : 1.5, type: dashed ? 'dashed' : 'solid' }, itemStyle: { color },
    data: (values ?? []).map((v, r) => [r, value(v)]),
  };
}

/** the cursor as a line and the periods as bands, on one of the two tracks */
function marks(axis: number, options: PositionTrackOptions): LineSeriesOption {
  const cursor = options.cursor;
  return {
    type: 'line', name: 'cursor', xAxisIndex: axis, yAxisIndex: axis, data: [], silent: true,
    markArea: periodBands(options.bands ?? []),
    markLine: {
      silent: true, symbol: ['none', 'none'], label: { show: false }, animation: false,
      lineStyle: { color: CURSOR_EDGE, width: 2, type: 'solid' },
      data: cursor === null || cursor === undefined ? [] : [{ xAxis: cursor }],
    },
  };
}

/** the grid's first and last centres along one axis */
function extent(view: PosteriorView, coord: 'x' | 'y'): [number, number] | undefined {
  const centers = view.grid?.[coord];
  return centers && centers.length > 0 ? [centers[0]!, centers[centers.length - 1]!] : undefined;
}

export function positionTrackOption(view: PosteriorView, options: PositionTrackOptions = {}): EChartsOption {
  const time = { type: 'value' as const, min: -0.5, max: view.rows - 0.5, splitLine: { show: false } };
  const [xRange, yRange] = [extent(view, 'x'), extent(view, 'y')];
  // the field's centres bound the axis (its padding bins reach past the arena); labels only at round values inside
  const yAxis = (name: string, range: [number, number] | undefined, index: number) => {
    const ticks = range ? niceTicks(range[0], range[1], 4) : [];
    return {
      type: 'value' as const, gridIndex: index, name, nameLocation: 'middle' as const, nameGap: 44, scale: true, splitNumber: 3,
      ...(range ? { min: range[0], max: range[1], axisTick: { customValues: ticks }, axisLabel: { customValues: ticks }, splitLine: { show: false } } : {}),
    };
  };
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, data: ['MAP position', 'true position'] },
    // the state track's margins, so the time axes line up
    grid: [{ left: 70, right: 110, top: 36, bottom: '55%' }, { left: 70, right: 110, top: '52%', bottom: 44 }],
    xAxis: [
      { ...time, gridIndex: 0, ...cellAxis(view.time, { target: 10 }), axisLabel: { show: false } },
      { ...time, gridIndex: 1, name: 'time (s)', nameLocation: 'middle', nameGap: 28, ...cellAxis(view.time, { target: 10 }) },
    ],
    yAxis: [yAxis('x (cm)', xRange, 0), yAxis('y (cm)', yRange, 1)],
    series: [
      track('MAP position', view.mapPosition, 0, DECODED_COLOR, false),
      track('true position', view.truePosition, 0, TRUE_COLOR, true),
      track('MAP position', view.mapPositionY, 1, DECODED_COLOR, false),
      track('true position', view.truePositionY, 1, TRUE_COLOR, true),
      marks(0, options),
      marks(1, options),
    ],
  };
}
