/**
 * The data at a glance: position over time on top, a tick per spike per electrode below, on one
 * shared time axis (seconds) that zooms together.
 */
import type { EChartsOption } from 'echarts';
import type { DataPreview } from '../../../shared/api';

export function spikeTickData(preview: DataPreview): [number, number][] {
  const out: [number, number][] = [];
  preview.spikeTimes.forEach((e, row) => {
    for (const t of e.times) out.push([t, row]);
  });
  return out;
}

export function dataPreviewOption(preview: DataPreview): EChartsOption {
  const electrodes = preview.spikeTimes.map((e) => e.electrode);
  const position = preview.positionTime.map((t, i) => [t, Number.isFinite(preview.position[i]!) ? preview.position[i]! : '-']);
  const tickHeight = Math.max(2, Math.min(12, Math.floor(200 / Math.max(electrodes.length, 1)) - 2));
  return {
    backgroundColor: 'transparent',
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'line' } },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    grid: [
      { left: 70, right: 20, top: 20, height: '32%' },
      { left: 70, right: 20, top: '48%', bottom: 60 },
    ],
    xAxis: [
      { type: 'value', gridIndex: 0, scale: true, axisLabel: { show: false } },
      { type: 'value', gridIndex: 1, scale: true, name: 'time (s)', nameLocation: 'middle', nameGap: 26 },
    ],
    yAxis: [
      { type: 'value', gridIndex: 0, name: 'position', scale: true },
      { type: 'category', gridIndex: 1, data: electrodes, inverse: true, axisLabel: { interval: electrodes.length > 24 ? 'auto' : 0 } },
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: [0, 1], filterMode: 'none' },
      { type: 'slider', xAxisIndex: [0, 1], filterMode: 'none', height: 16, bottom: 6 },
    ],
    series: [
      { type: 'line', name: 'position', xAxisIndex: 0, yAxisIndex: 0, showSymbol: false, sampling: 'lttb', lineStyle: { color: '#4e79a7' }, data: position },
      {
        type: 'scatter',
        name: 'spikes',
        xAxisIndex: 1,
        yAxisIndex: 1,
        symbol: 'rect',
        symbolSize: [1.5, tickHeight],
        large: true,
        itemStyle: { color: '#2f7d4f', opacity: 0.9 },
        tooltip: { show: false },
        data: spikeTickData(preview),
      },
    ],
  };
}
