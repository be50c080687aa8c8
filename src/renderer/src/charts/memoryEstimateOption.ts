/**
 * Memory per strategy on one chart: the formula's estimated peak, the measured tensor peak and,
 * where recorded, the peak RSS, all in MB, so a wrong estimate or an unexpected overhead stands out.
 */
import type { BarSeriesOption, EChartsOption } from 'echarts';
import type { StrategyResult } from '../../../shared/report';
import { MB } from './palette';

export interface MemoryBars {
  strategies: string[];
  estimatedMB: (number | null)[];
  measuredMB: (number | null)[];
  rssMB: (number | null)[];
}

const toMB = (bytes: number | undefined): number | null => (bytes === undefined || !Number.isFinite(bytes) ? null : bytes / MB);

export function memoryBars(results: readonly StrategyResult[]): MemoryBars {
  const withMemory = results.filter((r) => r.memory !== undefined);
  return {
    strategies: withMemory.map((r) => String(r.strategy)),
    estimatedMB: withMemory.map((r) => toMB(r.memory!.estimatedPeakBytes)),
    measuredMB: withMemory.map((r) => toMB(r.memory!.measuredPeakTensorBytes)),
    rssMB: withMemory.map((r) => toMB(r.memory!.peakRssBytes)),
  };
}

export function memoryEstimateOption(results: readonly StrategyResult[]): EChartsOption {
  const bars = memoryBars(results);
  const series: BarSeriesOption[] = [
    { type: 'bar', name: 'estimated peak (formula)', data: bars.estimatedMB, itemStyle: { opacity: 0.6 } },
    { type: 'bar', name: 'measured tensor peak', data: bars.measuredMB },
  ];
  if (bars.rssMB.some((v) => v !== null)) series.push({ type: 'bar', name: 'peak RSS', data: bars.rssMB });
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 20, top: 40, bottom: 60 },
    legend: { top: 4 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v) => (typeof v === 'number' ? `${Number(v.toPrecision(4))} MB` : '–'),
    },
    xAxis: { type: 'category', data: bars.strategies, axisLabel: { interval: 0, rotate: bars.strategies.length > 4 ? 20 : 0 } },
    yAxis: { type: 'value', name: 'peak memory (MB)', min: 0 },
    series,
  };
}
