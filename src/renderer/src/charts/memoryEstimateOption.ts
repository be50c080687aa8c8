/**
 * Memory per strategy on one chart: the formula's estimated peak, the measured tensor peak and,
 * where recorded, the peak RSS, on a log axis, so a wrong estimate or an unexpected overhead
 * stands out even beside a process's whole footprint.
 */
import type { BarSeriesOption, EChartsOption } from 'echarts';
import type { StrategyResult } from '../../../shared/report';
import { formatBytes } from '../lib/format';

export interface MemoryBars {
  strategies: string[];
  estimatedKiB: (number | null)[];
  measuredKiB: (number | null)[];
  rssKiB: (number | null)[];
}

/**
 * KiB, so every real value is ≥ 1 and bars on the log axis grow up from 1 KiB (ECharts starts
 * log-axis bars at 1). Zero or less has no place on a log axis: it is left out, not drawn wrong.
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

export function memoryEstimateOption(results: readonly StrategyResult[]): EChartsOption {
  const bars = memoryBars(results);
  const series: BarSeriesOption[] = [
    { type: 'bar', name: 'estimated peak (formula)', data: bars.estimatedKiB, itemStyle: { opacity: 0.6 } },
    { type: 'bar', name: 'measured tensor peak', data: bars.measuredKiB },
  ];
  if (bars.rssKiB.some((v) => v !== null)) series.push({ type: 'bar', name: 'peak RSS', data: bars.rssKiB });
  const bytesOf = (kib: unknown): string => (typeof kib === 'number' ? formatBytes(kib * 1024) : '–');
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 20, top: 64, bottom: 60 },
    legend: { top: 4 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: bytesOf,
    },
    xAxis: { type: 'category', data: bars.strategies, axisLabel: { interval: 0, rotate: bars.strategies.length > 4 ? 20 : 0 } },
    // log scale: a formula's kilobytes and a process's hundreds of megabytes on one chart
    yAxis: { type: 'log', name: 'peak memory (log scale)', logBase: 10, min: 1, axisLabel: { formatter: bytesOf } },
    series,
  };
}
