/**
 * Memory over time, in two panels on one time axis: process memory (RSS, JS heap, GPU) in MB on
 * top; tensor bytes (MB, left) and the tensor count (right) below, on scales of their own, since a
 * few MB of tensors would lie flat beside hundreds of MB of RSS. Input is the counter series (MB
 * already, as the samplers record them); time is in seconds from the run's start.
 *
 * Where the series come from (and so what they are called here):
 *   `engine memory (MB)` {rss}      the service samples the engine process's RSS from outside at
 *                                   20 Hz: "engine RSS (sampled by service)"
 *   `memory (MB)` {rss, heapUsed}   the engine process samples itself at span ends and unit
 *                                   boundaries: "engine JS heap"; its own RSS is the same quantity
 *                                   as the outside one, read less evenly, so it is shown only
 *                                   when no outside sample exists
 *   `tensors` {MB, count}           tf.memory() in the engine: "tensor bytes", "tensor count"
 *   `gpu memory (MB)` {used}        nvidia-smi: "GPU memory used"
 *   `<engine> memory (MB)` {rss}    an external engine's process tree, sampled from outside:
 *                                   "numpy RSS (process tree)"
 */
import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { CounterSeries } from '../../../shared/api';
import type { ProcessRole } from '../../../shared/events';
import { niceTicks } from './niceTicks';
import { colorForName } from './palette';

export interface MemorySeriesInput extends CounterSeries {
  proc?: ProcessRole;
}

/** process memory (MB), tensor memory (MB) and the tensor count each get an axis of their own */
export type MemoryAxis = 'MB' | 'tensorMB' | 'count';

/** the counter the service records for the engine process's RSS, sampled from outside */
export const OUTSIDE_RSS_COUNTER = 'engine memory (MB)';

/** tf.memory() of the engine ("tensors") or of one of its workers ("worker 0 tensors") */
const isTensorCounter = (name: string): boolean => /^(?:.+ )?tensors$/.test(name);

/** which axis a counter goes on: counts on the right, megabytes on the left, others not shown */
export function memoryAxisOf(s: Pick<CounterSeries, 'name' | 'key'>): MemoryAxis | null {
  if (s.key === 'count') return 'count';
  // V8's external and array-buffer bytes are parts of RSS that crowd the legend without telling more
  if (s.key === 'external' || s.key === 'arrayBuffers') return null;
  // a few MB of tensors beside hundreds of MB of RSS would lie flat on the RSS axis; the engine
  // workers' own tensors ("worker 0 tensors") are the same quantity
  if (isTensorCounter(s.name) && s.key === 'MB') return 'tensorMB';
  if (s.key === 'MB' || /\(MB\)/.test(s.name)) {
    // a device's total is a ceiling, not a use: it would flatten the curves below it
    if (/^gpu/i.test(s.name) && s.key === 'total') return null;
    return 'MB';
  }
  return null;
}

/**
 * The external engine whose process tree a series samples from outside ("<engine> memory (MB)",
 * key rss), or null: the engine's own and the service's memory are named otherwise.
 */
export function externalEngineOf(s: Pick<CounterSeries, 'name' | 'key'>): string | null {
  if (s.key !== 'rss' || s.name === OUTSIDE_RSS_COUNTER || /^gpu memory/i.test(s.name)) return null;
  const m = /^(.+) memory \(MB\)$/.exec(s.name);
  return m ? m[1]! : null;
}

const KEY_WORDS: Record<string, string> = { rss: 'RSS', heapUsed: 'JS heap', used: 'used' };

/**
 * The legend name of a series: what it measures, of which process, and for RSS who measured it.
 * Series read back from a finished run carry no process; only the engine samples its own memory.
 */
export function memoryLabel(s: MemorySeriesInput): string {
  const base = s.name.replace(/\s*\(MB\)\s*/, '').trim();
  const key = KEY_WORDS[s.key] ?? s.key;
  if (isTensorCounter(base)) {
    const owner = base.replace(/\s*tensors$/, '');
    return `${owner ? `${owner} ` : ''}${s.key === 'count' ? 'tensor count' : 'tensor bytes'}`;
  }
  if (s.name === OUTSIDE_RSS_COUNTER && s.key === 'rss') return 'engine RSS (sampled by service)';
  if (base === 'memory') {
    const proc = s.proc ?? 'engine';
    return s.key === 'rss' ? `${proc} RSS (self-sampled)` : `${proc} ${key}`;
  }
  if (/^gpu memory$/i.test(base)) return `GPU memory ${key}`;
  // another process watched by a sampler's peer option: "<label> rss (MB)"
  if (/ rss$/.test(base)) return `${base.replace(/ rss$/, '')} RSS`;
  const engine = externalEngineOf(s);
  if (engine !== null) return `${engine} RSS (process tree)`;
  return `${base} ${key}`;
}

/**
 * Fixed colours, each apart from the others in hue and readable on the light and the dark
 * background; anything unforeseen gets a colour from its name.
 */
const KNOWN_COLORS: Record<string, string> = {
  'engine RSS (sampled by service)': '#3b82f6',
  'engine RSS (self-sampled)': '#17a2b8',
  'engine JS heap': '#f28e2b',
  'service RSS (self-sampled)': '#59a14f',
  'service JS heap': '#b5838d',
  'tensor bytes': '#e15759',
  'tensor count': '#b07aa1',
  'GPU memory used': '#c9a227',
};

export const memoryColor = (label: string): string => KNOWN_COLORS[label] ?? colorForName(label);

/** an engine RSS read from outside makes the engine's own, less even, RSS reading redundant */
function redundant(s: MemorySeriesInput, all: readonly MemorySeriesInput[]): boolean {
  const own = s.name === 'memory (MB)' && s.key === 'rss' && (s.proc ?? 'engine') === 'engine';
  return own && all.some((o) => o.name === OUTSIDE_RSS_COUNTER && o.key === 'rss' && o.points.length > 0);
}

const AXIS_INDEX: Record<MemoryAxis, number> = { MB: 0, tensorMB: 1, count: 2 };
const SIDE_PX = 64;

/** The series memory views show, each with its axis, by label: the chart's lines and the timeline's counter tracks. */
export function shownMemorySeries(series: readonly MemorySeriesInput[]): { s: MemorySeriesInput; axis: MemoryAxis }[] {
  return series
    .filter((s) => !redundant(s, series))
    .map((s) => ({ s, axis: memoryAxisOf(s) }))
    .filter((x): x is { s: MemorySeriesInput; axis: MemoryAxis } => x.axis !== null)
    .sort((a, b) => memoryLabel(a.s).localeCompare(memoryLabel(b.s)));
}

/**
 * `runS`: the run's length in seconds, when known: the time axis then ends there, as the timeline
 * above it does, instead of at a round number past the last sample.
 */
export function memoryOption(series: readonly MemorySeriesInput[], runS?: number): EChartsOption {
  const shown = shownMemorySeries(series);
  // tensors get a panel of their own under the process memory, on the same time axis
  const split = shown.some((x) => x.axis !== 'MB');
  let maxS = 0;
  for (const { s } of shown) for (const [tsUs] of s.points) maxS = Math.max(maxS, tsUs / 1e6);
  const lines: LineSeriesOption[] = shown.map(({ s, axis }) => ({
    type: 'line',
    name: memoryLabel(s),
    // by name, so a series keeps its colour when others appear later in a live run
    color: memoryColor(memoryLabel(s)),
    xAxisIndex: split && axis !== 'MB' ? 1 : 0,
    yAxisIndex: split ? AXIS_INDEX[axis] : 0,
    showSymbol: false,
    sampling: 'lttb',
    lineStyle: { width: 1.5, type: axis === 'count' ? 'dashed' : 'solid' },
    data: s.points.map(([tsUs, v]) => [tsUs / 1e6, v]),
  }));
  // one round end and step for both panels, so their ticks line up and the last one reads well
  const ticks = maxS > 0 ? niceTicks(0, maxS, 6) : [];
  const stepS = ticks.length > 1 ? ticks[1]! - ticks[0]! : undefined;
  const roundEnd = stepS !== undefined ? { max: Number((Math.ceil(maxS / stepS - 1e-9) * stepS).toPrecision(12)), interval: stepS } : {};
  const time = {
    type: 'value' as const, min: 0, ...(runS !== undefined && runS >= maxS && runS > 0 ? { max: runS } : roundEnd),
    // the axis may end at the run's own length (6.867292497 s): its label reads as the ticks do
    axisLabel: { formatter: (v: number) => String(Number(v.toPrecision(3))) },
  };
  const timeName = { name: 'time (s)', nameLocation: 'middle' as const, nameGap: 26 };
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: split
      ? [
        { left: SIDE_PX, right: SIDE_PX, top: 36, height: '40%' },
        { left: SIDE_PX, right: SIDE_PX, top: '60%', bottom: 72 },
      ]
      : [{ left: SIDE_PX, right: SIDE_PX, top: 40, bottom: 72 }],
    legend: { type: 'scroll', bottom: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v)) },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    xAxis: split
      ? [{ ...time, gridIndex: 0, axisLabel: { show: false } }, { ...time, gridIndex: 1, ...timeName }]
      : [{ ...time, ...timeName }],
    yAxis: split
      ? [
        { type: 'value', gridIndex: 0, name: 'process memory (MB)', min: 0 },
        { type: 'value', gridIndex: 1, name: 'tensor memory (MB)', min: 0 },
        { type: 'value', gridIndex: 1, name: 'tensors (count)', min: 0, position: 'right', splitLine: { show: false } },
      ]
      : [{ type: 'value', name: 'process memory (MB)', min: 0 }],
    series: lines,
  };
}
