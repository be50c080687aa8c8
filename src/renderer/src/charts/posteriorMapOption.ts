/**
 * A 2-D decode's posterior at one row as a map of the open field: the cells as one image
 * (heatmapRaster, y up), the recent true trajectory as a line, the true position and the MAP as
 * markers over it, on axes in cm. The colour scale runs from 0 to the row's largest cell, so the
 * map's shape reads at every row; how much probability it holds is said beside it (`mass`).
 */
import type { CustomSeriesOption, CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn, EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { PosteriorMap } from '../../../shared/posteriorViewMap';
import { formatNumber } from '../lib/format';
import { heatmapRaster, VIRIDIS, type Raster } from './heatmapRaster';
import { DECODED_COLOR, TRUE_COLOR } from './likelihoodHeatmapOption';
import { posteriorRange } from './posteriorHeatmapOption';

export const MAP_GRID = { left: 56, right: 84, top: 36, bottom: 44 } as const;

/** the field's edges along one axis: half a cell beyond the first and last centres */
export function axisEdges(centers: readonly number[]): [number, number] {
  const n = centers.length;
  if (n === 0) return [0, 1];
  const half = n > 1 ? (centers[n - 1]! - centers[0]!) / (n - 1) / 2 : 0.5;
  return [centers[0]! - half, centers[n - 1]! + half];
}

/** the map's cells as pixels: one per cell, x across, y up */
export function mapRaster(map: PosteriorMap, range: [number, number]): Raster {
  // heatmapRaster lays rows across and columns up: hand it the cells x-major
  const xMajor = new Array<number>(map.nx * map.ny);
  for (let ix = 0; ix < map.nx; ix++) for (let iy = 0; iy < map.ny; iy++) xMajor[ix * map.ny + iy] = map.values[iy * map.nx + ix]!;
  return heatmapRaster(map.nx, map.ny, xMajor, range);
}

/** the colour scale of a map: 0 to its largest cell */
export function mapRange(map: PosteriorMap): [number, number] {
  return posteriorRange(map.values);
}

/** the cell under a point in cm; null outside the field */
export function mapCellAt(map: PosteriorMap, x: number, y: number): { ix: number; iy: number; value: number } | null {
  const [x0, x1] = axisEdges(map.x);
  const [y0, y1] = axisEdges(map.y);
  const ix = Math.floor(((x - x0) / (x1 - x0)) * map.nx);
  const iy = Math.floor(((y - y0) / (y1 - y0)) * map.ny);
  if (!(ix >= 0 && ix < map.nx && iy >= 0 && iy < map.ny)) return null;
  return { ix, iy, value: map.values[iy * map.nx + ix]! };
}

function imageSeries(map: PosteriorMap, image: unknown): CustomSeriesOption {
  const [x0, x1] = axisEdges(map.x);
  const [y0, y1] = axisEdges(map.y);
  return {
    type: 'custom', id: 'map', name: 'map', silent: true, z: 1, data: [[0, 0]],
    renderItem: (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
      if (image === undefined) return null;
      const [left, top] = api.coord([x0, y1]) as [number, number];
      const [right, bottom] = api.coord([x1, y0]) as [number, number];
      const area = params.coordSys as unknown as { x: number; y: number; width: number; height: number };
      return {
        type: 'image',
        style: { image: image as string, x: left, y: top, width: right - left, height: bottom - top },
        clipPath: { type: 'rect', shape: { x: area.x, y: area.y, width: area.width, height: area.height } },
      } as CustomSeriesRenderItemReturn;
    },
  };
}

const point = (p: readonly number[] | undefined): (number | string)[][] => (p && Number.isFinite(p[0]) && Number.isFinite(p[1]) ? [[p[0]!, p[1]!]] : []);

function overlays(map: PosteriorMap): (LineSeriesOption | ScatterSeriesOption)[] {
  const trail: LineSeriesOption = {
    type: 'line', name: 'true trajectory', z: 4, showSymbol: false, connectNulls: false, silent: true,
    lineStyle: { color: TRUE_COLOR, width: 2, opacity: 0.85 }, itemStyle: { color: TRUE_COLOR },
    data: (map.trail?.x ?? []).map((x, i) => (Number.isFinite(x) && Number.isFinite(map.trail!.y[i]) ? [x, map.trail!.y[i]!] : ['-', '-'])),
  };
  const truth: ScatterSeriesOption = {
    type: 'scatter', name: 'true position', z: 5, symbol: 'circle', symbolSize: 11, silent: true,
    itemStyle: { color: TRUE_COLOR, borderColor: '#000000', borderWidth: 1.5 }, data: point(map.truePosition),
  };
  const best: ScatterSeriesOption = {
    type: 'scatter', name: 'MAP position', z: 6, symbol: 'circle', symbolSize: 18, silent: true,
    itemStyle: { color: 'rgba(0, 0, 0, 0)', borderColor: DECODED_COLOR, borderWidth: 3 }, data: point(map.mapPosition),
  };
  return [trail, truth, best];
}

export interface MapChartOptions {
  /** the cells on a canvas (mapRaster through the component's canvas); absent draws the markers only */
  image?: unknown;
  range?: [number, number];
}

export function posteriorMapOption(map: PosteriorMap, options: MapChartOptions = {}): EChartsOption {
  const [lo, hi] = options.range ?? mapRange(map);
  const [x0, x1] = axisEdges(map.x);
  const [y0, y1] = axisEdges(map.y);
  const lines = overlays(map);
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, data: lines.map((s) => s.name as string) },
    grid: { ...MAP_GRID },
    // the field's edges fall between round numbers: their own labels would crowd the round ticks beside them
    xAxis: { type: 'value', name: 'x (cm)', nameLocation: 'middle', nameGap: 26, min: x0, max: x1, splitLine: { show: false }, axisLabel: { showMinLabel: false, showMaxLabel: false } },
    yAxis: { type: 'value', name: 'y (cm)', nameLocation: 'middle', nameGap: 36, min: y0, max: y1, splitLine: { show: false }, axisLabel: { showMinLabel: false, showMaxLabel: false } },
    visualMap: {
      type: 'continuous', seriesIndex: [], min: lo, max: hi, right: 0, top: 'middle', calculable: false, precision: 3,
      text: [formatNumber(hi, 2), '0'], inRange: { color: [...VIRIDIS] },
    },
    series: [imageSeries(map, options.image), ...lines],
  };
}

/** the plot's width in pixels for a plot height, so a centimetre is as long across as up */
export function mapPlotWidth(map: Pick<PosteriorMap, 'x' | 'y'>, plotHeightPx: number): number {
  const [x0, x1] = axisEdges(map.x);
  const [y0, y1] = axisEdges(map.y);
  return Math.round((plotHeightPx * (x1 - x0)) / (y1 - y0 || 1));
}
