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

/**
 * Fixed bands rather than a scale over the data: a 4e-6 difference is good news whatever the
 * other cells hold. The allclose tolerance (1e-4) is where "within tolerance" ends.
 */
const DIFF_PIECES = [
  { lt: -6, label: '< 1e-6', color: '#2e7d32' },
  { gte: -6, lt: -4, label: '1e-6 – 1e-4', color: '#8bc34a' },
  { gte: -4, lt: -2, label: '1e-4 – 1e-2', color: '#f0b44c' },
  { gte: -2, label: '≥ 1e-2', color: '#e15759' },
];
const SHARE_PIECES = [
  { gte: 99.5, label: '≥ 99.5 %', color: '#2e7d32' },
  { gte: 95, lt: 99.5, label: '95 – 99.5 %', color: '#f0b44c' },
  { lt: 95, label: '< 95 %', color: '#e15759' },
];

export function agreementHeatmapOption(m: AgreementMatrix, metric: AgreementMetric = 'maxAbsDiff'): EChartsOption {
  const cells = agreementCells(m, metric);
  const isShare = metric === 'argmaxAgreement';
  const labelOf = (c: AgreementCell): string => {
    const text = isShare ? `${(c.raw * 100).toFixed(1)}%` : formatNumber(c.raw, 2);
    return c.allclose || isShare ? text : `${text} ✗`;
  };
  return {
    backgroundColor: 'transparent',
    grid: { left: 130, right: 120, top: 20, bottom: 80 },
    tooltip: {
      formatter: (p: unknown) => {
        const d = (p as { data?: AgreementCell }).data;
        if (!d) return '';
        const [j, i] = d.value;
        return `${m.strategies[i]} vs ${m.strategies[j]}<br/>${metric}: ${labelOf(d)}${isShare ? '' : `<br/>allclose: ${d.allclose ? 'yes' : 'no'}`}`;
      },
    },
    xAxis: { type: 'category', data: m.strategies, axisLabel: { interval: 0, rotate: 30 } },
    yAxis: { type: 'category', data: m.strategies, inverse: true, axisLabel: { interval: 0 } },
    visualMap: {
      type: 'piecewise',
      right: 0,
      top: 'middle',
      pieces: isShare ? SHARE_PIECES : DIFF_PIECES,
    },
    series: [
      {
        type: 'heatmap',
        name: metric,
        data: cells.map((c) => ({ ...c, label: { show: true, formatter: labelOf(c), color: '#fff' } })),
      },
    ],
  };
}
