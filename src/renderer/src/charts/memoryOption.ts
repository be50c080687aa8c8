/**
 * Memory over time: RSS, heap, tensor bytes and GPU memory in MB on the left axis, the tensor count
 * on the right. Input is the counter series (MB already, as the sampler records them); time on the
 * axis is in seconds from the run's start.
 */
import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { CounterSeries } from '../../../shared/api';
import type { ProcessRole } from '../../../shared/events';
import { colorForName } from './palette';

export interface MemorySeriesInput extends CounterSeries {
  proc?: ProcessRole;
}

export type MemoryAxis = 'MB' | 'count';

/** which axis a counter goes on: counts on the right, megabytes on the left, others not shown */
export function memoryAxisOf(s: Pick<CounterSeries, 'name' | 'key'>): MemoryAxis | null {
  if (s.key === 'count') return 'count';
  // V8's external and array-buffer bytes are parts of RSS that crowd the legend without telling more
  if (s.key === 'external' || s.key === 'arrayBuffers') return null;
  if (s.key === 'MB' || /\(MB\)/.test(s.name)) {
    // a device's total is a ceiling, not a use: it would flatten the curves below it
    if (/^gpu/i.test(s.name) && s.key === 'total') return null;
    return 'MB';
  }
  return null;
}

/** legend names: "engine rss" (the process's own counter), "engine memory rss" (sampled from outside), "tensor bytes" */
export function memoryLabel(s: MemorySeriesInput): string {
  const base = s.name.replace(/\s*\(MB\)\s*/, '').trim();
  if (base === 'tensors') return s.key === 'count' ? 'tensor count' : 'tensor bytes';
  // a process's own memory counter: "engine rss", "service heapUsed"
  if (base === 'memory') return `${s.proc ?? 'process'} ${s.key}`;
  return `${base} ${s.key}`;
}

/** the usual series get fixed, distinct colours; anything else a colour from its name */
const KNOWN_COLORS: Record<string, string> = {
  'engine rss': '#4e79a7',
  'engine memory rss': '#76b7b2',
  'engine heapUsed': '#f28e2b',
  'service rss': '#59a14f',
  'service heapUsed': '#b07aa1',
  'tensor bytes': '#e15759',
  'tensor count': '#9c755f',
  'gpu memory used': '#edc948',
};

export const memoryColor = (label: string): string => KNOWN_COLORS[label] ?? colorForName(label);

export function memoryOption(series: readonly MemorySeriesInput[]): EChartsOption {
  const shown = series
    .map((s) => ({ s, axis: memoryAxisOf(s) }))
    .filter((x): x is { s: MemorySeriesInput; axis: MemoryAxis } => x.axis !== null)
    .sort((a, b) => memoryLabel(a.s).localeCompare(memoryLabel(b.s)));
  const lines: LineSeriesOption[] = shown.map(({ s, axis }) => ({
    type: 'line',
    name: memoryLabel(s),
    // by name, so a series keeps its colour when others appear later in a live run
    color: memoryColor(memoryLabel(s)),
    yAxisIndex: axis === 'count' ? 1 : 0,
    showSymbol: false,
    sampling: 'lttb',
    lineStyle: { width: 1.5, type: axis === 'count' ? 'dashed' : 'solid' },
    data: s.points.map(([tsUs, v]) => [tsUs / 1e6, v]),
  }));
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 64, right: 64, top: 40, bottom: 72 },
    legend: { type: 'scroll', bottom: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v)) },
    xAxis: { type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 26, min: 0 },
    yAxis: [
      { type: 'value', name: 'memory (MB)', min: 0 },
      { type: 'value', name: 'tensors (count)', min: 0, splitLine: { show: false } },
    ],
    series: lines,
  };
}
