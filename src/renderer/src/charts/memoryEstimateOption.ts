/**
 * Memory per strategy on one chart: the formula's estimated peak, the measured tensor peak and,
 * where recorded, the peak RSS, on a log axis, so a wrong estimate or an unexpected overhead
 * stands out even beside a process's whole footprint.
 */
import type { BarSeriesOption, EChartsOption } from 'echarts';
import type { StrategyResult } from '../../../shared/report';
import { formatBytes } from '../../../shared/format';
import { formatBinaryTick } from '../lib/format';

export interface MemoryBars {
  strategies: string[];
  estimatedKiB: (number | null)[];
  measuredKiB: (number | null)[];
  rssKiB: (number | null)[];
}

/**
 * KiB, so every real value is ≥ 1 and bars on the log axis grow up from 1 KiB (log2 of 1 is the
 * axis's 0). Zero or less has no place on a log axis: it is left out, not drawn wrong.
 */
const toKiB = (bytes: number | undefined): number | null =>
  bytes === undefined || !Number.isFinite(bytes) || bytes <= 0 ? null : Math.max(bytes / 1024, 1);

export function memoryBars(results: readonly StrategyResult[]): MemoryBars {
  const withMemory = results.filter((r) => r.memory !== undefined);
  return {
    strategies: withMemory.map((r) => String(r.strategy)),
    estimatedKiB: withMemory.map((r) => toKiB(r.memory!.estimatedPeakBytes)),
    measuredKiB: withMemory.map((r) => toKiB(r.memory!.measuredPeakTensorBytes)),
    rssKiB: withMemory.map((r) => toKiB(r.memory!.peakRssBytes)),
  };
}

/** exponent steps whose powers of two read as round sizes: ×2, ×4, ×8, ×32, ×1024 */
const EXPONENT_STEPS = [1, 2, 3, 5, 10];
const MAX_TICKS = 8;

/**
 * The log axis, drawn as a value axis over log2(KiB) so its ticks are ours: powers of two, a
 * step apart that keeps them to about eight, from 1 KiB up to the first tick above the data.
 */
export function binaryLogAxis(maxKiB: number): { max: number; step: number } {
  const top = Math.max(1, Math.ceil(Math.log2(Math.max(maxKiB, 1)) - 1e-9));
  const step = EXPONENT_STEPS.find((s) => Math.ceil(top / s) + 1 <= MAX_TICKS) ?? 10;
  return { max: Math.ceil(top / step) * step, step };
}

const log2OrNull = (kib: number | null): number | null => (kib === null ? null : Math.log2(kib));

export function memoryEstimateOption(results: readonly StrategyResult[]): EChartsOption {
  const bars = memoryBars(results);
  const series: BarSeriesOption[] = [
    { type: 'bar', name: 'estimated peak (formula)', data: bars.estimatedKiB.map(log2OrNull), itemStyle: { opacity: 0.6 } },
    { type: 'bar', name: 'measured tensor peak', data: bars.measuredKiB.map(log2OrNull) },
  ];
  if (bars.rssKiB.some((v) => v !== null)) series.push({ type: 'bar', name: 'peak RSS', data: bars.rssKiB.map(log2OrNull) });
  const maxKiB = Math.max(1, ...[...bars.estimatedKiB, ...bars.measuredKiB, ...bars.rssKiB].map((v) => v ?? 1));
  const axis = binaryLogAxis(maxKiB);
  const bytesAt = (exponent: number): number => 2 ** exponent * 1024;
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 20, top: 64, bottom: 60 },
    legend: { top: 4 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v) => (typeof v === 'number' ? formatBytes(bytesAt(v)) : '–'),
    },
    xAxis: { type: 'category', data: bars.strategies, axisLabel: { interval: 0, rotate: bars.strategies.length > 4 ? 20 : 0 } },
    // log scale: a formula's kilobytes and a process's hundreds of megabytes on one chart; every
    // tick a power of two, so it reads as a round binary size (1 KiB, 32 KiB, 1 MiB, 32 MiB)
    yAxis: {
      type: 'value',
      name: 'peak memory (log scale)',
      min: 0,
      max: axis.max,
      interval: axis.step,
      axisLabel: { formatter: (v: number) => formatBinaryTick(bytesAt(v)) },
    },
    series,
  };
}
