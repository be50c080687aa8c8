/**
 * Summary statistics of repeated timings. The first (cold) call is kept apart from the warm
 * repeats, as the seeds measure it: it carries kernel initialization and shader/program
 * compilation, which the warm statistics must not include.
 */
import type { MeasuredName, StrategyComparison, TimingStats } from '../../shared/report';
import { medianCi95, ratioOfMediansCi95, tukeyOutliers, verdictOf, type BootstrapOptions } from './bootstrap';

/** Middle value; the mean of the two middle values for an even count; NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n − 1 in the denominator); 0 when fewer than two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (values.length - 1));
}

/**
 * Statistics of the warm repeats, with the cold first call beside them.
 *
 * `n` counts warm samples only. With no warm samples (a run cancelled after its first call)
 * `n` is 0 and median/mean/min/max describe the first call, std 0: tables still show a time, and
 * consumers that compare cold against warm (the cold-start finding) must skip `n === 0`.
 * Using the first call as a warm sample instead would hide exactly the cold start we measure.
 *
 * `ci95` (the median's bootstrap interval) needs two warm samples; `outliers` marks the warm
 * samples outside Tukey's fences (none below four samples).
 */
export function timingStats(firstMs: number, samplesMs: readonly number[]): TimingStats {
  const samples = [...samplesMs];
  const basis = samples.length > 0 ? samples : [firstMs];
  const stats: TimingStats = {
    firstMs,
    samplesMs: samples,
    medianMs: median(basis),
    meanMs: mean(basis),
    stdMs: samples.length > 0 ? sampleStd(samples) : 0,
    minMs: Math.min(...basis),
    maxMs: Math.max(...basis),
    n: samples.length,
  };
  const ci95 = medianCi95(samples);
  if (ci95) stats.ci95 = ci95;
  stats.outliers = tukeyOutliers(samples);
  return stats;
}

/**
 * `a`'s warm median against `b`'s (ratio > 1: `a` is slower), with the bootstrap interval of the
 * ratio and its verdict. Undefined when either side has fewer than two warm samples: a single
 * repeat has no spread, so no interval and no verdict can be told honestly.
 */
export function compareTimings(a: TimingStats, b: TimingStats, against: MeasuredName, options?: BootstrapOptions): StrategyComparison | undefined {
  const ratioCi95 = ratioOfMediansCi95(a.samplesMs, b.samplesMs, options);
  if (!ratioCi95 || !(b.medianMs > 0)) return undefined;
  return { against, ratio: a.medianMs / b.medianMs, ratioCi95, verdict: verdictOf(ratioCi95) };
}

/** Sum of two timings call by call (encode + decode = total), first calls and repeats alike. */
export function addTimings(a: TimingStats, b: TimingStats): TimingStats {
  const n = Math.min(a.samplesMs.length, b.samplesMs.length);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(a.samplesMs[i]! + b.samplesMs[i]!);
  return timingStats(a.firstMs + b.firstMs, samples);
}
