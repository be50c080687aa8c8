/**
 * The posterior over position as a time × position heatmap with the MAP and the true position
 * over it, and the non-local periods as bands: the likelihood heatmap's option (same axes, image
 * and lines) over the posterior adapted to its shape, with a probability colour scale that starts
 * at 0 and names of its own.
 */
import type { EChartsOption, LineSeriesOption, MarkAreaComponentOption } from 'echarts';
import type { LikelihoodView } from '../../../shared/api';
import type { PosteriorView } from '../../../shared/posteriorView';
import { formatNumber } from '../lib/format';
import { likelihoodHeatmapOption } from './likelihoodHeatmapOption';

/** a period band's colours: orange reads over viridis' purples and greens, and on both themes */
export const PERIOD_FILL = 'rgba(255, 149, 0, 0.16)';
export const PERIOD_EDGE = '#ff9500';
const PERIOD_FILL_OVER_IMAGE = 'rgba(255, 149, 0, 0.06)';

/** the posterior as the likelihood chart reads a view: the MAP where the likelihood has its argmax */
export function asLikelihoodShape(view: PosteriorView): LikelihoodView {
  const out: LikelihoodView = {
    strategy: view.source, nTime: view.nTime, nBins: view.nBins, startRow: view.startRow, endRow: view.endRow, rowsPerRow: view.rowsPerRow,
    relative: false, values: view.values, rows: view.rows, cols: view.cols, binCenters: view.binCenters, time: view.time,
    decodedPosition: view.mapPosition, strategies: [],
  };
  if (view.truePosition) out.truePosition = view.truePosition;
  return out;
}

/** colour scale [0, the largest probability shown]: 0 is "nothing here", whatever the view holds */
export function posteriorRange(values: readonly number[]): [number, number] {
  let hi = 0;
  for (const v of values) if (v > hi) hi = v;
  return [0, hi > 0 ? hi : 1];
}

/**
 * Bands over displayed rows [from, to), in the charts' cell units. `z` lifts them over the
 * heatmap's image, under which a mark area is drawn otherwise.
 */
export function periodBands(bands: readonly (readonly [number, number])[], z?: number): MarkAreaComponentOption {
  // over the heatmap a fill would tint the probabilities it sits on: there the band is its edges
  const over = z !== undefined;
  return {
    silent: true,
    ...(over ? { z } : {}),
    itemStyle: { color: over ? PERIOD_FILL_OVER_IMAGE : PERIOD_FILL, borderColor: PERIOD_EDGE, borderWidth: over ? 2 : 1 },
    data: bands.map(([from, to]) => [{ xAxis: from - 0.5 }, { xAxis: to - 0.5 }]),
  };
}

export interface PosteriorOptions {
  image?: unknown;
  range?: readonly [number, number];
  selection?: readonly [number, number] | null;
  /** displayed rows [from, to) of the non-local periods */
  bands?: readonly (readonly [number, number])[];
}

export function posteriorHeatmapOption(view: PosteriorView, options: PosteriorOptions = {}): EChartsOption {
  const range = options.range ?? posteriorRange(view.values);
  const base = likelihoodHeatmapOption(asLikelihoodShape(view), { relative: false, image: options.image, range, selection: options.selection ?? null });
  const series = base.series as LineSeriesOption[];
  const lines = series.slice(1);
  lines[0]!.name = 'MAP position';
  const bands: LineSeriesOption = { type: 'line', name: 'non-local periods', data: [], silent: true, markArea: periodBands(options.bands ?? [], 3) };
  return {
    ...base,
    legend: { top: 4, data: lines.map((s) => s.name as string) },
    yAxis: { ...(base.yAxis as object), name: 'position (cm)' },
    visualMap: { ...(base.visualMap as object), precision: 2, text: [formatNumber(range[1], 2), '0'] },
    series: [series[0]!, bands, ...lines],
  };
}
