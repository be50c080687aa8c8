/**
 * Pairwise agreement between strategies' likelihoods. Differences are shown as log10 so 1e-7 and
 * 1e-2 are told apart; argmax agreement as a share in percent. A cell that fails allclose is
 * marked with ✗ in its label. Labels carry two significant digits so they fit their cells.
 */
import type { EChartsOption } from 'echarts';
import type { AgreementMatrix } from '../../../shared/report';

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
/** the light bands need dark text to be read */
const DARK_TEXT_ON = new Set(['#8bc34a', '#f0b44c']);

function pieceColor(pieces: readonly { lt?: number; gte?: number; color: string }[], v: number): string {
  const hit = pieces.find((p) => (p.gte === undefined || v >= p.gte) && (p.lt === undefined || v < p.lt));
  return hit?.color ?? pieces[pieces.length - 1]!.color;
}

/**
 * A cell's label, short enough for a narrow cell: two significant digits ("4.8e-6"), "0" below
 * the float32 floor, shares as whole or one-decimal percent.
 */
export function agreementLabel(raw: number, metric: AgreementMetric): string {
  if (!Number.isFinite(raw)) return String(raw);
  if (metric === 'argmaxAgreement') {
    const pct = raw * 100;
    return `${pct >= 99.95 || Number.isInteger(pct) ? pct.toFixed(0) : pct.toFixed(1)}%`;
  }
  const abs = Math.abs(raw);
  if (abs < DIFF_FLOOR) return '0';
  return raw.toExponential(1).replace('e+', 'e');
}

export function agreementHeatmapOption(m: AgreementMatrix, metric: AgreementMetric = 'maxAbsDiff'): EChartsOption {
  const cells = agreementCells(m, metric);
  const isShare = metric === 'argmaxAgreement';
  const pieces = isShare ? SHARE_PIECES : DIFF_PIECES;
  const labelOf = (c: AgreementCell): string => {
    const text = agreementLabel(c.raw, metric);
    return c.allclose || isShare ? text : `${text} ✗`;
  };
  // past a dozen strategies no label fits a cell; the tooltip still tells each value
  const showLabels = m.strategies.length <= 12;
  return {
    backgroundColor: 'transparent',
    // the legend sits above the matrix, so the cells get the panel's whole width
    grid: { left: 8, right: 12, top: 44, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
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
      orient: 'horizontal',
      left: 'center',
      top: 4,
      itemWidth: 14,
      itemHeight: 10,
      pieces,
    },
    series: [
      {
        type: 'heatmap',
        name: metric,
        data: cells.map((c) => ({
          ...c,
          label: {
            show: showLabels,
            formatter: labelOf(c),
            fontSize: 11,
            color: DARK_TEXT_ON.has(pieceColor(pieces, c.value[2])) ? '#1d232b' : '#fff',
          },
        })),
      },
    ],
  };
}
