/**
 * Two runs side by side: the change of each metric in percent (B against A), regressions in red,
 * with the threshold marked, so the verdict can be read at a glance.
 */
import type { EChartsOption } from 'echarts';
import type { Comparison } from '../../../shared/api';
import { formatSignedPct } from '../../../shared/format';
import { SEVERITY_COLORS } from './palette';

export function compareBars(c: Comparison): { metric: string; deltaPct: number; regression: boolean }[] {
  return c.rows
    .filter((r): r is typeof r & { deltaPct: number } => r.deltaPct !== null && Number.isFinite(r.deltaPct))
    .map((r) => ({ metric: r.metric, deltaPct: r.deltaPct, regression: r.regression }));
}

export function compareOption(c: Comparison): EChartsOption {
  const bars = compareBars(c);
  return {
    backgroundColor: 'transparent',
    // the right margin holds the threshold's label, centred on its line at the axis' right end
    grid: { left: 220, right: 90, top: 32, bottom: 40 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => (typeof v === 'number' ? formatSignedPct(v) : '–') },
    xAxis: { type: 'value', name: 'change B vs A (%)', nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'category', data: bars.map((b) => b.metric), inverse: true, axisLabel: { width: 210, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name: 'change',
        data: bars.map((b) => ({
          value: b.deltaPct,
          itemStyle: { color: b.regression ? SEVERITY_COLORS.error : b.deltaPct < 0 ? SEVERITY_COLORS.ok : SEVERITY_COLORS.neutral },
        })),
        // the threshold's name sits at the top end of its line, clear of the axis ticks below (the
        // metric axis runs downwards, so the line starts at the top); the mirrored line needs no
        // label of its own (the two lie a few pixels apart on a wide axis)
        markLine: {
          symbol: 'none',
          silent: true,
          lineStyle: { type: 'dashed', color: SEVERITY_COLORS.warning },
          data: [
            { xAxis: c.thresholdPct, label: { show: true, position: 'start', formatter: `±${c.thresholdPct} % threshold`, color: SEVERITY_COLORS.warning } },
            { xAxis: -c.thresholdPct, label: { show: false } },
          ],
        },
      },
    ],
  };
}
