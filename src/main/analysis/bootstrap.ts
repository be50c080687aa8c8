/**
 * Confidence intervals by the bootstrap, as criterion and hyperfine give them: resample the warm
 * repeats with replacement, take the median of each resample, and read the 2.5 % and 97.5 %
 * quantiles of those medians (the percentile method). The resampling is seeded, so the same
 * samples always give the same interval: a report can be recomputed and compared bit for bit.
 *
 * Medians, not means: one repeat disturbed by another process moves a mean, not a median.
 */
import type { Verdict } from '../../shared/report';

export const BOOTSTRAP_RESAMPLES = 2000;
/** fixed, so that an interval depends on the samples only */
export const BOOTSTRAP_SEED = 0x6b64_6531;

export type Interval = [number, number];

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
}

/** mulberry32: small, fast and good enough to draw resampling indices; floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Quantile of sorted values with linear interpolation between order statistics (R's type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Medians of `resamples` resamples of `samples`. The samples are sorted once; a resample is a
 * count per sorted position, so its median is read off by walking the counts (O(n) per resample,
 * no sort), which keeps the stopping rule cheap between repeats.
 */
function resampledMedians(samples: readonly number[], resamples: number, random: () => number): Float64Array {
  const sorted = [...samples].sort((x, y) => x - y);
  const n = sorted.length;
  const lowRank = (n - 1) >> 1;
  const highRank = n >> 1;
  const counts = new Uint32Array(n);
  const out = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[Math.floor(random() * n)]!++;
    let seen = 0;
    let low = Number.NaN;
    for (let j = 0; j < n; j++) {
      const before = seen;
      seen += counts[j]!;
      if (before <= lowRank && lowRank < seen) low = sorted[j]!;
      if (before <= highRank && highRank < seen) {
        out[r] = (low + sorted[j]!) / 2;
        break;
      }
    }
  }
  return out;
}

function percentileInterval(values: Float64Array): Interval {
  values.sort();
  return [quantileSorted(values, 0.025), quantileSorted(values, 0.975)];
}

function usable(samples: readonly number[]): boolean {
  return samples.length >= 2 && samples.every(Number.isFinite);
}

/**
 * Bootstrap 95 % interval of the median. Undefined below two samples or with a non-finite one:
 * one sample has no spread to resample, and an interval [x, x] would claim a precision the run
 * never showed.
 */
export function medianCi95(samples: readonly number[], options: BootstrapOptions = {}): Interval | undefined {
  if (!usable(samples)) return undefined;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  return percentileInterval(resampledMedians(samples, options.resamples ?? BOOTSTRAP_RESAMPLES, random));
}

/**
 * Bootstrap 95 % interval of median(numerator) ÷ median(denominator), each sample set resampled on
 * its own (the two were measured independently, so no pairing is assumed). Undefined when either
 * side has fewer than two samples, or a resampled median of the denominator is not positive.
 */
export function ratioOfMediansCi95(
  numerator: readonly number[], denominator: readonly number[], options: BootstrapOptions = {},
): Interval | undefined {
  if (!usable(numerator) || !usable(denominator)) return undefined;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const top = resampledMedians(numerator, resamples, random);
  const bottom = resampledMedians(denominator, resamples, random);
  const ratios = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    if (!(bottom[r]! > 0)) return undefined;
    ratios[r] = top[r]! / bottom[r]!;
  }
  return percentileInterval(ratios);
}

/** Half the interval's width as a share of the median: 0.05 reads "±5 %". */
export function relativeHalfWidth(ci: Interval, median: number): number {
  return median > 0 ? (ci[1] - ci[0]) / 2 / median : Number.POSITIVE_INFINITY;
}

/**
 * Indices of the samples outside Tukey's fences (1.5 interquartile ranges beyond the quartiles).
 * Below four samples quartiles say nothing, so none is marked.
 */
export function tukeyOutliers(samples: readonly number[]): number[] {
  if (samples.length < 4) return [];
  const sorted = [...samples].sort((x, y) => x - y);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const fence = 1.5 * (q3 - q1);
  const out: number[] = [];
  samples.forEach((x, i) => {
    if (x < q1 - fence || x > q3 + fence) out.push(i);
  });
  return out;
}

/** A ratio (this ÷ other time) judged by its interval: only an interval that excludes 1 is a difference. */
export function verdictOf(ratioCi95: Interval): Verdict {
  if (ratioCi95[1] < 1) return 'faster';
  if (ratioCi95[0] > 1) return 'slower';
  return 'no significant difference';
}

/**
 * A 95 % interval of Σ numerators / Σ denominators (a rate over pieces of unequal size: ms per row
 * over a decode's windows), resampling the pieces: the ratio estimator's percentile interval.
 * Undefined with fewer than three pieces or a piece that is not finite.
 */
export function ratioOfSumsCi95(
  numerators: readonly number[], denominators: readonly number[], options: BootstrapOptions = {},
): Interval | undefined {
  const n = numerators.length;
  if (n < 3 || denominators.length !== n || ![...numerators, ...denominators].every(Number.isFinite)) return undefined;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const ratios = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const k = Math.floor(random() * n);
      num += numerators[k]!;
      den += denominators[k]!;
    }
    ratios[r] = den > 0 ? num / den : Number.NaN;
  }
  return percentileInterval(ratios);
}
