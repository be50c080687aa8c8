/**
 * The data at a glance: the encoding position track on top, a tick per encoding spike per
 * electrode below, on one shared time axis (seconds) that zooms together. The decoding grid's
 * time span (what the summary calls the time span) is shaded on both, so the preview's range and
 * the summary's agree in the picture and each says which data it is.
 */
import type { EChartsOption } from 'echarts';
import type { DataPreview } from '../../../shared/api';
import { formatNumber } from '../lib/format';
import type { ChartPreview, DecodingWindow } from '../lib/previewWindow';

/** the height the Data view gives the chart; rows and ticks are sized for it */
export const PREVIEW_HEIGHT_PX = 380;
const POSITION_COLOR = '#4e79a7';
const SPIKE_COLOR = '#2f9e5b';
const WINDOW_COLOR = 'rgba(240, 180, 76, 0.18)';
const WINDOW_EDGE = '#d08a1c';
/** an electrode label needs this many pixels of row to be read without touching the next */
const LABEL_ROW_PX = 13;

export function spikeTickData(preview: DataPreview): [number, number][] {
  const out: [number, number][] = [];
  preview.spikeTimes.forEach((e, row) => {
    for (const t of e.times) out.push([t, row]);
  });
  return out;
}

interface Layout {
  topGrid: { top: number; height: number };
  spikeGrid: { top: number; height: number };
  sliderBottom: number;
}

function layout(heightPx: number): Layout {
  const legend = 30;
  const axisBelow = 44; // tick labels and the axis title under the spike rows
  const slider = 18;
  const sliderBottom = 10;
  const gap = 16;
  const plots = Math.max(120, heightPx - legend - axisBelow - slider - sliderBottom - gap);
  const top = Math.round(plots * 0.42);
  return {
    topGrid: { top: legend, height: top },
    spikeGrid: { top: legend + top + gap, height: plots - top },
    sliderBottom,
  };
}

/** every k-th electrode label so labels never overlap: k grows with the electrodes per pixel */
export function electrodeLabelStep(electrodes: number, rowsPx: number): number {
  if (electrodes <= 0) return 1;
  return Math.max(1, Math.ceil((LABEL_ROW_PX * electrodes) / Math.max(rowsPx, 1)));
}

function decodingArea(w: DecodingWindow, label: boolean) {
  return {
    silent: true,
    itemStyle: { color: WINDOW_COLOR, borderColor: WINDOW_EDGE, borderWidth: 1, borderType: 'dashed' as const },
    label: label
      ? { show: true, position: 'insideTop' as const, color: WINDOW_EDGE, fontSize: 11, formatter: `decoding grid ${formatNumber(w.startS)}–${formatNumber(w.endS)} s (${w.rows} rows)` }
      : { show: false },
    data: [[{ xAxis: w.startS }, { xAxis: w.endS }]] as [{ xAxis: number }, { xAxis: number }][],
  };
}

export function dataPreviewOption(preview: ChartPreview, heightPx = PREVIEW_HEIGHT_PX): EChartsOption {
  const electrodes = preview.spikeTimes.map((e) => e.electrode);
  const position = preview.positionTime.map((t, i) => [t, Number.isFinite(preview.position[i]!) ? preview.position[i]! : '-']);
  const box = layout(heightPx);
  const rowPx = box.spikeGrid.height / Math.max(electrodes.length, 1);
  const tickHeight = Math.max(1, Math.min(12, Math.floor(rowPx * 0.7)));
  const step = electrodeLabelStep(electrodes.length, box.spikeGrid.height);
  return {
    backgroundColor: 'transparent',
    animation: false,
    legend: { top: 4, left: 'center', data: ['encoding position', 'encoding spikes'] },
    tooltip: { trigger: 'axis', axisPointer: { type: 'line' } },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    grid: [
      { left: 84, right: 24, ...box.topGrid },
      { left: 84, right: 24, ...box.spikeGrid },
    ],
    xAxis: [
      { type: 'value', gridIndex: 0, scale: true, axisLabel: { show: false } },
      { type: 'value', gridIndex: 1, scale: true, name: 'time (s)', nameLocation: 'middle', nameGap: 24 },
    ],
    yAxis: [
      // the title runs along the axis, so it never meets the chart's top edge
      { type: 'value', gridIndex: 0, name: 'position', nameLocation: 'middle', nameGap: 44, scale: true },
      {
        type: 'category',
        gridIndex: 1,
        data: electrodes,
        inverse: true,
        name: 'electrode',
        nameLocation: 'middle',
        nameGap: 44,
        axisTick: { show: false },
        axisLabel: { interval: step - 1, fontSize: rowPx < 12 ? 10 : 12 },
      },
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: [0, 1], filterMode: 'none' },
      { type: 'slider', xAxisIndex: [0, 1], filterMode: 'none', height: 18, bottom: box.sliderBottom, left: 84, right: 24 },
    ],
    series: previewSeries(preview, position, tickHeight),
  };
}

/** The position line over the spike ticks, each with the decoding window shaded where there is one. */
function previewSeries(preview: ChartPreview, position: (number | string)[][], tickHeight: number): EChartsOption['series'] {
  const w = preview.decoding;
  return [
    {
      type: 'line',
      name: 'encoding position',
      xAxisIndex: 0,
      yAxisIndex: 0,
      showSymbol: false,
      sampling: 'lttb',
      color: POSITION_COLOR,
      lineStyle: { color: POSITION_COLOR },
      data: position,
      ...(w ? { markArea: decodingArea(w, true) } : {}),
    },
    {
      type: 'scatter',
      name: 'encoding spikes',
      xAxisIndex: 1,
      yAxisIndex: 1,
      symbol: 'rect',
      symbolSize: [1.5, tickHeight],
      large: true,
      color: SPIKE_COLOR,
      itemStyle: { color: SPIKE_COLOR, opacity: 0.9 },
      tooltip: { show: false },
      data: spikeTickData(preview),
      ...(w ? { markArea: decodingArea(w, false) } : {}),
    },
  ];
}
