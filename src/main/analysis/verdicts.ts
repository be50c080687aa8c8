/**
 * Strategies against each other in the terms of their intervals: each one's total time against
 * the reference, and the words every judgement uses ("faster", "slower", "no significant
 * difference"). A strategy is never compared with itself: `auto` counts as the strategy it
 * resolved to.
 */
import { isDispatch } from '../../shared/config';
import type { StrategyComparison, StrategyResult, TimingStats } from '../../shared/report';
import { formatMs } from '../../shared/format';
import type { Interval } from './bootstrap';
import { concreteStrategy, totalTiming } from './results';
import { compareTimings } from './stats';

/** Whether two results stand for the same strategy (auto resolved to it, or the same name). */
export function sameStrategy(a: StrategyResult, b: StrategyResult): boolean {
  if (a.strategy === b.strategy) return true;
  const ca = concreteStrategy(a);
  return ca !== undefined && ca === concreteStrategy(b);
}

/** `a`'s total time against `b`'s, when both have the warm samples for an interval and they differ. */
export function compareResults(a: StrategyResult, b: StrategyResult): StrategyComparison | undefined {
  if (sameStrategy(a, b)) return undefined;
  const ta = totalTiming(a);
  const tb = totalTiming(b);
  if (!ta || !tb || a.status !== 'ok' || b.status !== 'ok') return undefined;
  return compareTimings(ta, tb, isDispatch(b.strategy) ? (concreteStrategy(b) ?? b.strategy) : b.strategy);
}

/** Each strategy with `vsReference` where the run has the reference and an interval can be told. */
export function withVsReference(strategies: readonly StrategyResult[]): StrategyResult[] {
  const reference = strategies.find((s) => s.strategy === 'reference' && s.status === 'ok');
  return strategies.map((s) => {
    const c = reference && s !== reference ? compareResults(s, reference) : undefined;
    return c ? { ...s, vsReference: c } : s;
  });
}

function ciEnd(x: number): string {
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** "1.18× (95 % CI 1.12–1.24)" */
export function formatRatioCi(ratio: number, ci: Interval): string {
  return `${ciEnd(ratio)}× (95 % CI ${ciEnd(ci[0])}–${ciEnd(ci[1])})`;
}

/** "180 ms ±2.4 %": the median with half its interval's width; the bare median without an interval */
export function formatMedianCi(t: Pick<TimingStats, 'medianMs' | 'ci95'>): string {
  if (!t.ci95 || !(t.medianMs > 0)) return formatMs(t.medianMs);
  const half = (t.ci95[1] - t.ci95[0]) / 2 / t.medianMs;
  return `${formatMs(t.medianMs)} ±${(half * 100).toFixed(half < 0.1 ? 1 : 0)} %`;
}

/** "180 ms (95 % CI 176 ms – 185 ms)" for sentences */
export function formatMedianWithCi(t: Pick<TimingStats, 'medianMs' | 'ci95'>): string {
  return t.ci95 ? `${formatMs(t.medianMs)} (95 % CI ${formatMs(t.ci95[0])} – ${formatMs(t.ci95[1])})` : formatMs(t.medianMs);
}

/** "1.18× (95 % CI 1.12–1.24): slower", the way a table cell or sentence states a comparison */
export function comparisonText(c: StrategyComparison): string {
  return `${formatRatioCi(c.ratio, c.ratioCi95)}: ${c.verdict}`;
}
