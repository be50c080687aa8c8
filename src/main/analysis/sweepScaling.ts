/**
 * Whether a sweep's log-log line is a scaling law at all. A run whose time is mostly start-up,
 * fit or dispatch overhead that does not depend on the swept size gives a line with an exponent
 * near zero, or below it when noise or a warmer cache at the larger sizes tilts it: reported as
 * "time ∝ spikes^−0.25" that reads as a law the engine does not follow.
 */
import type { LogLogSlope } from '../../shared/sweep';

/** fitted growth over the whole range below this factor counts as not growing */
export const FLAT_GROWTH = 1.2;
/** a straight line's fixed part above this share of its time at the largest value dominates it, even where the size is largest */
export const FIXED_SHARE = 0.5;

/** Least squares of time on value (not logs): the fixed part and the rate; null below two distinct values. */
function straightLine(xs: readonly number[], ys: readonly number[]): { fixedMs: number; msPerUnit: number } | null {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  if (sxx === 0) return null;
  const msPerUnit = sxy / sxx;
  return { fixedMs: my - msPerUnit * mx, msPerUnit };
}

/** The values and times the log-log fit used: both positive and finite. */
function usablePoints(xs: readonly number[], ys: readonly (number | null)[]): { xs: number[]; ys: number[] } {
  const out = { xs: [] as number[], ys: [] as number[] };
  xs.forEach((x, i) => {
    const y = ys[i];
    if (x > 0 && y !== null && y !== undefined && y > 0 && Number.isFinite(y)) {
      out.xs.push(x);
      out.ys.push(y);
    }
  });
  return out;
}

export function fixedCostDominates(slope: LogLogSlope, xs: readonly number[], ys: readonly (number | null)[]): boolean {
  if (slope.exponent < 0) return true;
  const p = usablePoints(xs, ys);
  if (p.xs.length < 2) return false;
  const growth = (Math.max(...p.xs) / Math.min(...p.xs)) ** slope.exponent;
  if (growth < FLAT_GROWTH) return true;
  const line = straightLine(p.xs, p.ys);
  if (!line || line.msPerUnit <= 0) return line !== null;
  const atLargestMs = line.fixedMs + line.msPerUnit * Math.max(...p.xs);
  return line.fixedMs / atLargestMs > FIXED_SHARE;
}
