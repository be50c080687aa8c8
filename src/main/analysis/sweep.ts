/**
 * What the runs of a sweep say together: each strategy's time per metric at every value (medians
 * with their bootstrap intervals, straight from the reports), how it grows (the slope of a
 * least-squares line on log-log axes), and where the fastest strategy changes. A change between
 * two consecutive values is placed where the two strategies' log-log lines between those points
 * cross, and called significant only when the intervals separate the two at both ends, so noise
 * that swaps two equal strategies is not sold as a crossover.
 */
import { MODELLED_STAGES } from '../engine/model';
import { fixedCostDominates } from './sweepScaling';
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import { BLOCK_SPAN, CHUNK_SPAN, ELECTRODE_SPAN, WINDOWS_SPAN } from '../../shared/traceSpans';
import {
  fixedCostText, formatSweepValue, SWEEP_VARIABLE_TEXT, totalSeries, type LogLogSlope, type SweepCrossover, type SweepPoint, type SweepSeries, type SweepResult, type SweepStrategy, type SweepVariable,
} from '../../shared/sweep';

export interface SweepAnalysisInput {
  vary: SweepVariable;
  /** ascending */
  values: readonly number[];
  /** aligned with values: the value's report, or null where its run has none (failed, not run yet) */
  reports: readonly (Report | null)[];
}

/** the part of a sweep's result the analysis computes (the fields are described on SweepResult) */
export type SweepAnalysis = Pick<SweepResult, 'strategies' | 'metrics' | 'fastest' | 'clearlyFastest' | 'crossovers' | 'conclusion' | 'warnings'>;

const TIMED_METRICS = ['total', 'encode', 'decode'] as const;
type TimedMetric = (typeof TIMED_METRICS)[number];

/** Least squares of log(y) on log(x) over the points where both are positive; null below two such points. */
export function logLogSlope(xs: readonly number[], ys: readonly (number | null)[]): LogLogSlope | null {
  const lx: number[] = [];
  const ly: number[] = [];
  xs.forEach((x, i) => {
    const y = ys[i];
    if (x > 0 && y !== null && y !== undefined && y > 0 && Number.isFinite(y)) {
      lx.push(Math.log(x));
      ly.push(Math.log(y));
    }
  });
  const n = lx.length;
  if (n < 2) return null;
  const mx = lx.reduce((a, b) => a + b, 0) / n;
  const my = ly.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (lx[i]! - mx) ** 2;
    sxy += (lx[i]! - mx) * (ly[i]! - my);
    syy += (ly[i]! - my) ** 2;
  }
  if (sxx === 0) return null;
  const exponent = sxy / sxx;
  const residual = syy - exponent * sxy;
  const r2 = n < 3 ? null : syy === 0 ? 1 : Math.max(0, 1 - residual / syy);
  return { exponent, scaleMs: Math.exp(my - exponent * mx), r2, points: n };
}

function timedPoint(t: TimingStats | undefined): SweepPoint | null {
  if (!t || t.n < 1 || !(t.medianMs > 0)) return null;
  return { ms: t.medianMs, ci95: t.ci95 ? [t.ci95[0], t.ci95[1]] : null, n: t.n };
}

/** A stage's time per repeat: the report keeps each stage's sum over the warm repeats. */
function stagePoint(s: StrategyResult, stage: string): SweepPoint | null {
  const st = s.stages.find((x) => x.name === stage);
  const n = s.total?.n ?? 0;
  if (!st || n < 1 || !(st.totalMs > 0)) return null;
  return { ms: st.totalMs / n, ci95: null, n };
}

function resultOf(report: Report | null, strategy: string): StrategyResult | undefined {
  return report?.strategies.find((s) => s.strategy === strategy && s.status === 'ok');
}

/** Strategy names in the order the runs list them. */
function strategyNames(reports: readonly (Report | null)[]): string[] {
  const names: string[] = [];
  for (const r of reports) for (const s of r?.strategies ?? []) if (!names.includes(s.strategy)) names.push(s.strategy);
  return names;
}

/** spans that group an electrode's, a block's or a batch of windows' work: their stages are inside */
const GROUPING_SPANS: ReadonlySet<string> = new Set([ELECTRODE_SPAN, BLOCK_SPAN, CHUNK_SPAN, WINDOWS_SPAN]);

/**
 * Whether a span name of the report is a stage to follow across the sweep: not encode and decode
 * (timed on their own, with intervals), not the spans that group electrodes, blocks or windows,
 * whose number and size change with the data (nor their numbered names in older reports:
 * "electrode 3", "block 0").
 */
function isSweptStage(name: string): boolean {
  return name !== 'encode' && name !== 'decode' && !GROUPING_SPANS.has(name) && !/\s\d+$/.test(name);
}

/** Stage names in the order to show them: the engine's modelled stages in their order, then any other as it came. */
function inStageOrder(names: Iterable<string>): string[] {
  const seen = new Set(names);
  const modelled: string[] = MODELLED_STAGES.filter((n) => seen.has(n));
  return [...modelled, ...[...seen].filter((n) => !modelled.includes(n))];
}

/** A strategy's stages across the sweep's reports. */
function stageNames(reports: readonly (Report | null)[], strategy: string): string[] {
  const seen = new Set<string>();
  for (const r of reports) for (const st of resultOf(r, strategy)?.stages ?? []) if (isSweptStage(st.name)) seen.add(st.name);
  return inStageOrder(seen);
}

function series(metric: string, statistic: SweepSeries['statistic'], values: readonly number[], points: (SweepPoint | null)[]): SweepSeries {
  const ms = points.map((p) => p?.ms ?? null);
  const slope = logLogSlope(values, ms);
  if (slope) slope.fixedCostDominates = fixedCostDominates(slope, values, ms);
  return { metric, statistic, points, slope };
}

/** One warning per strategy whose total is no scaling law, so its exponent is not read as one. */
function fixedCostWarnings(vary: SweepVariable, strategies: readonly SweepStrategy[]): string[] {
  return strategies.flatMap((s) => {
    const slope = totalSeries(s).slope;
    if (!slope?.fixedCostDominates) return [];
    return [`${s.strategy}: ${fixedCostText(vary)} (fitted log-log slope ${slope.exponent.toFixed(2)} is not a scaling law)`];
  });
}

function strategySeries(input: SweepAnalysisInput, strategy: string): SweepStrategy {
  const results = input.reports.map((r) => resultOf(r, strategy));
  const timed = TIMED_METRICS.map((m: TimedMetric) => series(m, 'median', input.values, results.map((s) => timedPoint(s?.[m]))));
  const stages = stageNames(input.reports, strategy).map((name) =>
    series(name, 'mean per repeat', input.values, results.map((s) => (s ? stagePoint(s, name) : null))));
  return { strategy, series: [...timed, ...stages] };
}

function fastestAt(strategies: readonly SweepStrategy[], i: number): string | null {
  let best: { name: string; ms: number } | null = null;
  for (const s of strategies) {
    const p = totalSeries(s).points[i];
    if (p && (best === null || p.ms < best.ms)) best = { name: s.strategy, ms: p.ms };
  }
  return best?.name ?? null;
}

/** a's interval wholly below b's: a is faster beyond the noise of either */
function clearlyBelow(a: SweepPoint | null | undefined, b: SweepPoint | null | undefined): boolean {
  return !!(a?.ci95 && b?.ci95 && a.ci95[1] < b.ci95[0]);
}

interface Pair {
  from: SweepSeries;
  to: SweepSeries;
}

/**
 * Where two log-log segments cross: d = log(from) − log(to) goes from ≤ 0 at `below` to ≥ 0 at
 * `above`; it is linear in log(value) on both lines, so its zero is at the share d0 / (d0 − d1).
 */
function crossingPoint(pair: Pair, values: readonly number[], i: number, j: number): { at: number; atMs: number } | null {
  const [f0, f1, t0, t1] = [pair.from.points[i], pair.from.points[j], pair.to.points[i], pair.to.points[j]];
  if (!f0 || !f1 || !t0 || !t1) return null;
  const d0 = Math.log(f0.ms) - Math.log(t0.ms);
  const d1 = Math.log(f1.ms) - Math.log(t1.ms);
  const share = d0 === d1 ? 0.5 : Math.min(1, Math.max(0, d0 / (d0 - d1)));
  const [x0, x1] = [Math.log(values[i]!), Math.log(values[j]!)];
  const logMs = Math.log(f0.ms) + share * (Math.log(f1.ms) - Math.log(f0.ms));
  return { at: Math.exp(x0 + share * (x1 - x0)), atMs: Math.exp(logMs) };
}

function crossoverText(c: Omit<SweepCrossover, 'text'>, vary: SweepVariable, overlapAt: number[]): string {
  const where = c.at === null
    ? `between ${formatSweepValue(c.below)} and ${formatSweepValue(c.above)} ${SWEEP_VARIABLE_TEXT[vary]}`
    : `≈ ${formatSweepValue(c.at)} ${SWEEP_VARIABLE_TEXT[vary]} (between ${formatSweepValue(c.below)} and ${formatSweepValue(c.above)})`;
  const judged = c.significant
    ? 'significant: the 95 % intervals separate the two at both ends'
    : c.at === null
      ? 'not judged: one of the two has no time at one end'
      : `not significant: the 95 % intervals overlap (or are missing) at ${overlapAt.map(formatSweepValue).join(' and ')}`;
  return `${c.to} overtakes ${c.from} at ${where}; ${judged}`;
}

/** between the values at i and j (consecutive, or with only values that measured nothing between them) */
function crossoverBetween(input: SweepAnalysisInput, strategies: readonly SweepStrategy[], i: number, j: number): SweepCrossover {
  const [from, to] = [fastestAt(strategies, i)!, fastestAt(strategies, j)!];
  const pair: Pair = {
    from: totalSeries(strategies.find((s) => s.strategy === from)!),
    to: totalSeries(strategies.find((s) => s.strategy === to)!),
  };
  const point = crossingPoint(pair, input.values, i, j);
  const below = input.values[i]!;
  const above = input.values[j]!;
  const overlapAt: number[] = [];
  if (!clearlyBelow(pair.from.points[i], pair.to.points[i])) overlapAt.push(below);
  if (!clearlyBelow(pair.to.points[j], pair.from.points[j])) overlapAt.push(above);
  const c = { from, to, below, above, at: point?.at ?? null, atMs: point?.atMs ?? null, significant: point !== null && overlapAt.length === 0 };
  return { ...c, text: crossoverText(c, input.vary, overlapAt) };
}

/** The runner-up at value i: the strategy with the next lowest total median. */
function runnerUpAt(strategies: readonly SweepStrategy[], winner: string, i: number): SweepPoint | null {
  let best: SweepPoint | null = null;
  for (const s of strategies) {
    const p = totalSeries(s).points[i];
    if (s.strategy !== winner && p && (best === null || p.ms < best.ms)) best = p;
  }
  return best;
}

function noCrossoverText(input: SweepAnalysisInput, strategies: readonly SweepStrategy[], fastest: readonly (string | null)[]): string {
  const measured = fastest.map((f, i) => (f === null ? -1 : i)).filter((i) => i >= 0);
  if (measured.length === 0) return 'no run completed: there is nothing to compare yet.';
  const range = `${formatSweepValue(input.values[measured[0]!]!)}–${formatSweepValue(input.values[measured.at(-1)!]!)} ${SWEEP_VARIABLE_TEXT[input.vary]}`;
  const winner = fastest[measured[0]!]!;
  const withData = strategies.filter((s) => totalSeries(s).points.some((p) => p !== null));
  if (withData.length < 2) return `no crossover in range ${range}: only ${winner} has times to compare.`;
  const at = measured.length === 1 ? 'at the one value measured' : `at all ${measured.length} values measured`;
  return `no crossover in range ${range}: ${winner} is fastest ${at}.`;
}

/** The fastest strategy at value i when its interval is clear of the runner-up's; null when noise could swap them. */
function clearlyFastestAt(strategies: readonly SweepStrategy[], fastest: readonly (string | null)[], i: number): string | null {
  const winner = fastest[i];
  if (!winner) return null;
  const point = totalSeries(strategies.find((s) => s.strategy === winner)!).points[i];
  const runnerUp = runnerUpAt(strategies, winner, i);
  return runnerUp && clearlyBelow(point, runnerUp) ? winner : null;
}

function listText(values: number[]): string {
  const shown = values.map(formatSweepValue);
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** "Beyond the noise: reference fastest at 800 and 1 600; no significant difference at 100, 200 and 400." */
function significanceText(input: SweepAnalysisInput, fastest: readonly (string | null)[], clearly: readonly (string | null)[]): string {
  const winners = [...new Set(clearly.filter((c): c is string => c !== null))];
  const parts = winners.map((w) => `${w} fastest at ${listText(input.values.filter((_, i) => clearly[i] === w))}`);
  const unclear = input.values.filter((_, i) => fastest[i] !== null && clearly[i] === null);
  if (unclear.length > 0) parts.push(`no significant difference at ${listText(unclear)}`);
  return `Beyond the noise (95 % intervals apart): ${parts.join('; ')}.`;
}

export { formatSweepValue, sweepPointText, totalSeries } from '../../shared/sweep';

export function analyseSweep(input: SweepAnalysisInput): SweepAnalysis {
  const strategies = strategyNames(input.reports).map((name) => strategySeries(input, name));
  const fastest = input.values.map((_, i) => fastestAt(strategies, i));
  const crossovers: SweepCrossover[] = [];
  // consecutive values with a winner each: a value where nothing completed is stepped over
  const measured = fastest.map((f, i) => (f === null ? -1 : i)).filter((i) => i >= 0);
  for (let k = 0; k + 1 < measured.length; k++) {
    const [i, j] = [measured[k]!, measured[k + 1]!];
    if (fastest[i] !== fastest[j]) crossovers.push(crossoverBetween(input, strategies, i, j));
  }
  const clearlyFastest = input.values.map((_, i) => clearlyFastestAt(strategies, fastest, i));
  const several = strategies.filter((s) => totalSeries(s).points.some((p) => p !== null)).length >= 2;
  const first = crossovers.length > 0 ? crossovers.map((c) => c.text).join('; ') + '.' : noCrossoverText(input, strategies, fastest);
  const conclusion = several ? `${first} ${significanceText(input, fastest, clearlyFastest)}` : first;
  const stages = inStageOrder(strategies.flatMap((s) => s.series.map((x) => x.metric)).filter((m) => !(TIMED_METRICS as readonly string[]).includes(m)));
  return { strategies, metrics: [...TIMED_METRICS, ...stages], fastest, clearlyFastest, crossovers, conclusion, warnings: fixedCostWarnings(input.vary, strategies) };
}
