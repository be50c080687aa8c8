/**
 * Per strategy: cold first call beside the warm median, with whiskers on the warm bars: the
 * median's 95 % interval where the report has one, else ± one standard deviation. Phase picks
 * encode, decode or total; times in milliseconds.
 */
import type { BarSeriesOption, CustomSeriesOption, CustomSeriesRenderItemAPI, CustomSeriesRenderItemReturn, EChartsOption } from 'echarts';
import type { StrategyResult, TimingStats } from '../../../shared/report';
import { formatMs } from '../../../shared/format';
import { SEVERITY_COLORS } from './palette';

export type TimingPhase = 'encode' | 'decode' | 'total';

export interface TimingBar {
  strategy: string;
  coldMs: number | null;
  medianMs: number | null;
  stdMs: number | null;
  /** bootstrap 95 % interval of the median; null in reports written before intervals */
  ci95: [number, number] | null;
}

export function timingBars(results: readonly StrategyResult[], phase: TimingPhase): TimingBar[] {
  return results.map((r) => {
    const t: TimingStats | undefined = r[phase];
    return {
      strategy: String(r.strategy), coldMs: t?.firstMs ?? null, medianMs: t?.medianMs ?? null, stdMs: t?.stdMs ?? null, ci95: t?.ci95 ?? null,
    };
  });
}

/**
 * Whether any strategy had timed repeats after its first call. A decode is one call per strategy
 * (and a run may ask for no repeats): its "warm median" is that call again, nothing to compare.
 */
export function hasWarmRepeats(results: readonly StrategyResult[]): boolean {
  return results.some((r) => (r.total?.n ?? 0) > 0);
}

// two bars share 80 % of a category (gap 20 %) with 30 % of a bar between them; the warm bar's
// centre then sits this share of the band right of the category's centre
const BAR_CATEGORY_GAP = 0.2;
const BAR_GAP = 0.3;
const BAR_WIDTH = (1 - BAR_CATEGORY_GAP) / (2 + BAR_GAP);
const WARM_BAR_OFFSET = -(1 - BAR_CATEGORY_GAP) / 2 + BAR_WIDTH / 2 + (1 + BAR_GAP) * BAR_WIDTH;

/** [category, low, high] of a warm bar's whisker: its interval, else ± std; null without a median */
function whiskerOf(b: TimingBar, i: number): number[] | null {
  if (b.medianMs === null) return null;
  if (b.ci95) return [i, b.ci95[0], b.ci95[1]];
  return b.stdMs === null ? null : [i, Math.max(0, b.medianMs - b.stdMs), b.medianMs + b.stdMs];
}

function renderWhisker(_: unknown, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn {
  const cat = api.value(0) as number;
  const lo = api.value(1) as number;
  const hi = api.value(2) as number;
  const bottom = api.coord([cat, lo]) as [number, number];
  const top = api.coord([cat, hi]) as [number, number];
  const band = (api.size!([1, 0]) as number[])[0]!;
  const x = bottom[0] + band * WARM_BAR_OFFSET;
  const cap = Math.max(3, band * 0.08);
  const style = { stroke: SEVERITY_COLORS.neutral, lineWidth: 1.5 };
  return {
    type: 'group',
    children: [
      { type: 'line', shape: { x1: x, y1: bottom[1], x2: x, y2: top[1] }, style },
      { type: 'line', shape: { x1: x - cap, y1: top[1], x2: x + cap, y2: top[1] }, style },
      { type: 'line', shape: { x1: x - cap, y1: bottom[1], x2: x + cap, y2: bottom[1] }, style },
    ],
  } as CustomSeriesRenderItemReturn;
}

export function timingBarOption(results: readonly StrategyResult[], phase: TimingPhase = 'total'): EChartsOption {
  const bars = timingBars(results, phase);
  const categories = bars.map((b) => b.strategy);
  const cold: BarSeriesOption = { type: 'bar', name: 'cold (first call)', data: bars.map((b) => b.coldMs), itemStyle: { opacity: 0.55 } };
  const warm: BarSeriesOption = {
    type: 'bar', name: 'warm (median)', data: bars.map((b) => b.medianMs),
    barGap: `${BAR_GAP * 100}%`, barCategoryGap: `${BAR_CATEGORY_GAP * 100}%`,
  };
  const whiskers: CustomSeriesOption = {
    type: 'custom',
    name: bars.some((b) => b.ci95) ? '95 % CI of the median' : '± std',
    renderItem: renderWhisker,
    encode: { x: 0, y: [1, 2] },
    data: bars.map(whiskerOf).filter((d): d is number[] => d !== null),
    z: 10,
    tooltip: { show: false },
  };
  return {
    backgroundColor: 'transparent',
    grid: { left: 70, right: 20, top: 64, bottom: 60 },
    legend: { top: 4, data: ['cold (first call)', 'warm (median)'] },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => (typeof v === 'number' ? formatMs(v) : '–') },
    xAxis: { type: 'category', data: categories, axisLabel: { interval: 0, rotate: categories.length > 4 ? 20 : 0 } },
    yAxis: { type: 'value', name: `${phase} time (ms)`, min: 0 },
    series: [cold, warm, whiskers],
  };
}
