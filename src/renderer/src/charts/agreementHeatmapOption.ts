/**
 * Pairwise agreement between strategies' likelihoods. Differences are shown as log10 so 1e-7 and
 * 1e-2 are told apart; argmax agreement as a share in percent. A cell that fails allclose is
 * marked with ✗ in its label.
 */
import type { EChartsOption } from 'echarts';
import type { AgreementMatrix } from '../../../shared/report';
import { formatNumber } from '../lib/format';

export type AgreementMetric = 'maxAbsDiff' | 'meanAbsDiff' | 'argmaxAgreement';

/** below this a difference is shown as zero: float32 cannot tell smaller ones apart */
export const DIFF_FLOOR = 1e-12;

export interface AgreementCell {
  value: [number, number, number];
  raw: number;
  allclose: boolean;
}

export function agreementCells(m: AgreementMatrix, metric: AgreementMetric): AgreementCell[] {
  const cells: AgreementCell[] = [];
  m.strategies.forEach((_, i) => {
    m.strategies.forEach((__, j) => {
      const raw = m[metric][i]?.[j] ?? NaN;
      const shown = metric === 'argmaxAgreement' ? raw * 100 : Math.log10(Math.max(Math.abs(raw), DIFF_FLOOR));
      cells.push({ value: [j, i, shown], raw, allclose: m.allclose[i]?.[j] ?? false });
    });
  });
  return cells;
}

export function agreementHeatmapOption(m: AgreementMatrix, metric: AgreementMetric = 'maxAbsDiff'): EChartsOption {
  const cells = agreementCells(m, metric);
  const isShare = metric === 'argmaxAgreement';
  const shown = cells.map((c) => c.value[2]).filter(Number.isFinite);
  const lo = shown.length ? Math.min(...shown) : 0;
  const hi = shown.length ? Math.max(...shown) : 1;
  const labelOf = (c: AgreementCell): string => {
    const text = isShare ? `${(c.raw * 100).toFixed(1)}%` : formatNumber(c.raw, 2);
    return c.allclose || isShare ? text : `${text} ✗`;
  };
  return {
    backgroundColor: 'transparent',
    grid: { left: 130, right: 90, top: 20, bottom: 80 },
    tooltip: {
      formatter: (p: unknown) => {
        const d = (p as { data?: AgreementCell & { label?: unknown } }).data;
        if (!d) return '';
        const [j, i] = d.value;
        return `${m.strategies[i]} vs ${m.strategies[j]}<br/>${metric}: ${labelOf(d)}${isShare ? '' : `<br/>allclose: ${d.allclose ? 'yes' : 'no'}`}`;
      },
    },
    xAxis: { type: 'category', data: m.strategies, axisLabel: { interval: 0, rotate: 30 } },
    yAxis: { type: 'category', data: m.strategies, inverse: true, axisLabel: { interval: 0 } },
    visualMap: {
      type: 'continuous',
      min: lo,
      max: hi === lo ? lo + 1 : hi,
      right: 0,
      top: 'middle',
      calculable: false,
      text: isShare ? ['100 %', 'argmax agree'] : ['log10 high', 'low'],
      // agreement: high is good (green); difference: low is good (green)
      inRange: { color: isShare ? ['#e15759', '#edc948', '#59a14f'] : ['#59a14f', '#edc948', '#e15759'] },
    },
    series: [
      {
        type: 'heatmap',
        name: metric,
        data: cells.map((c) => ({ ...c, label: { show: true, formatter: labelOf(c) } })),
      },
    ],
  };
}
