/**
 * The kernels that took the most time (tf.profile), summed over the strategies, one bar per
 * strategy so a kernel's cost can be compared between them. Times in milliseconds.
 */
import type { BarSeriesOption, EChartsOption } from 'echarts';
import type { StrategyResult } from '../../../shared/report';
import { formatMs } from '../../../shared/format';
import { colorForIndex } from './palette';

export const TOP_KERNELS = 12;

/** kernel names by total time over all strategies, largest first */
export function topKernels(results: readonly StrategyResult[], n = TOP_KERNELS): string[] {
  const total = new Map<string, number>();
  for (const r of results) for (const k of r.kernels) total.set(k.name, (total.get(k.name) ?? 0) + k.totalMs);
  return [...total.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n).map(([name]) => name);
}

export function kernelOption(results: readonly StrategyResult[], n = TOP_KERNELS): EChartsOption {
  const names = topKernels(results, n);
  const withKernels = results.filter((r) => r.kernels.length > 0);
  const series: BarSeriesOption[] = withKernels.map((r) => {
    const byName = new Map(r.kernels.map((k) => [k.name, k]));
    return {
      type: 'bar',
      name: String(r.strategy),
      itemStyle: { color: colorForIndex(results.indexOf(r)) },
      data: names.map((name) => {
        const k = byName.get(name);
        return k ? { value: k.totalMs, calls: k.calls } : null;
      }),
    };
  });
  return {
    backgroundColor: 'transparent',
    grid: { left: 150, right: 30, top: 48, bottom: 40 },
    legend: { top: 4 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v) => (typeof v === 'number' ? formatMs(v) : '–'),
    },
    xAxis: { type: 'value', name: 'kernel time (ms)', nameLocation: 'middle', nameGap: 26, min: 0 },
    yAxis: { type: 'category', data: names, inverse: true, axisLabel: { width: 140, overflow: 'truncate' } },
    series,
  };
}
