/**
 * The detector's non-local periods: runs of consecutive rows where P(Non-Local Continuous) +
 * P(Non-Local Fragmented) is above a threshold the user sets, the events (replays, theta sweeps) a
 * lab goes looking for. Pure, over whatever rows the page holds (displayed rows of a thinned view
 * or every row of a short decode).
 */

export interface NonLocalPeriod {
  /** the first row above the threshold, and one past the last */
  startRow: number;
  endRow: number;
  /** seconds: the first row's start, and the end of the last row (the next row's start) */
  startS: number;
  endS: number;
  durationS: number;
  /** the highest non-local probability in the period */
  peak: number;
}

/** a row's end: the next row's start, or for the last row its start plus the step before it */
function rowEnd(time: readonly number[], i: number): number {
  if (i + 1 < time.length) return time[i + 1]!;
  const step = i > 0 ? time[i]! - time[i - 1]! : 0;
  return time[i]! + (Number.isFinite(step) && step > 0 ? step : 0);
}

/**
 * Rows are "above" when their probability is strictly greater than the threshold, so threshold 0
 * keeps every row with any non-local probability and threshold 1 finds nothing (float32 sums that
 * land a hair above 1 are read as 1, not as an event). A NaN row is unknown: it ends a period and
 * never starts one, so a gap in the data is not bridged into one long event.
 */
export function nonLocalPeriods(time: readonly number[], probability: readonly number[], threshold: number): NonLocalPeriod[] {
  const out: NonLocalPeriod[] = [];
  const n = Math.min(time.length, probability.length);
  let start = -1;
  let peak = 0;
  const close = (end: number): void => {
    const startS = time[start]!;
    const endS = rowEnd(time, end - 1);
    out.push({ startRow: start, endRow: end, startS, endS, durationS: endS - startS, peak });
    start = -1;
  };
  for (let i = 0; i < n; i++) {
    const p = probability[i]!;
    const above = !Number.isNaN(p) && Math.min(1, p) > threshold;
    if (above && start < 0) {
      start = i;
      peak = p;
    } else if (above) {
      peak = Math.max(peak, p);
    } else if (start >= 0) {
      close(i);
    }
  }
  if (start >= 0) close(n);
  return out;
}
