/**
 * Memory over time: RSS, heap, tensor bytes and GPU memory in MB on the left axis, the tensor count
 * on the right. Input is the counter series (MB already, as the sampler records them); time on the
 * axis is in seconds from the run's start.
 */
import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { CounterSeries } from '../../../shared/api';
import type { ProcessRole } from '../../../shared/events';

export interface MemorySeriesInput extends CounterSeries {
  proc?: ProcessRole;
}

export type MemoryAxis = 'MB' | 'count';

/** which axis a counter goes on: counts on the right, megabytes on the left, others not shown */
export function memoryAxisOf(s: Pick<CounterSeries, 'name' | 'key'>): MemoryAxis | null {
  if (s.key === 'count') return 'count';
  if (s.key === 'MB' || /\(MB\)/.test(s.name)) {
    // a device's total is a ceiling, not a use: it would flatten the curves below it
    if (/^gpu/i.test(s.name) && s.key === 'total') return null;
    return 'MB';
  }
  return null;
}

/** "engine: memory rss", "tensors MB" → readable legend names, with the process when known */
export function memoryLabel(s: MemorySeriesInput): string {
  const base = s.name.replace(/\s*\(MB\)\s*/, '').trim();
  const label = base === 'tensors' ? (s.key === 'count' ? 'tensor count' : 'tensor bytes') : `${base} ${s.key}`;
  return s.proc ? `${s.proc}: ${label}` : label;
}

export function memoryOption(series: readonly MemorySeriesInput[]): EChartsOption {
  const shown = series
    .map((s) => ({ s, axis: memoryAxisOf(s) }))
    .filter((x): x is { s: MemorySeriesInput; axis: MemoryAxis } => x.axis !== null)
    .sort((a, b) => memoryLabel(a.s).localeCompare(memoryLabel(b.s)));
  const lines: LineSeriesOption[] = shown.map(({ s, axis }) => ({
    type: 'line',
    name: memoryLabel(s),
    yAxisIndex: axis === 'count' ? 1 : 0,
    showSymbol: false,
    sampling: 'lttb',
    lineStyle: { width: 1.5, type: axis === 'count' ? 'dashed' : 'solid' },
    data: s.points.map(([tsUs, v]) => [tsUs / 1e6, v]),
  }));
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 64, right: 64, top: 40, bottom: 40 },
    legend: { type: 'scroll', top: 4 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v)) },
    xAxis: { type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 26, min: 0 },
    yAxis: [
      { type: 'value', name: 'memory (MB)', min: 0 },
      { type: 'value', name: 'tensors (count)', min: 0, splitLine: { show: false } },
    ],
    series: lines,
  };
}
