/**
 * Binary search over ascending arrays (typed or plain), the one implementation every time-indexed
 * lookup uses: spike times per window, timeline spans in a view, samples under a cursor.
 */

/** The first index i in [lo, hi) with a[i] ≥ x; hi when every element is smaller. */
export function lowerBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  let left = lo;
  let right = hi;
  while (left < right) {
    const mid = (left + right) >>> 1;
    if (a[mid]! < x) left = mid + 1;
    else right = mid;
  }
  return left;
}

/** The first index i in [lo, hi) with a[i] > x; hi when none is larger. */
export function upperBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  let left = lo;
  let right = hi;
  while (left < right) {
    const mid = (left + right) >>> 1;
    if (a[mid]! <= x) left = mid + 1;
    else right = mid;
  }
  return left;
}
