/**
 * e^x for the filter's x = LL − m ≤ 0, defined here once so the plain loop and posteriorKernels.wat
 * (conditionRow, two rows' bins at a time) give the same bits: Math.exp is a library call of some
 * 20 to 50 ns a value, the filter's largest cost on a coarse grid, and no engine promises its bits.
 *
 * x = k · ln 2 + r with k the nearest integer to x / ln 2 (ties to even, by adding and subtracting
 * 1.5 · 2^52) and ln 2 split in two (Cody and Waite) so k · ln 2's leading part is exact; e^r,
 * |r| ≤ ln 2 / 2, by its Taylor series to r^13 (the next term is under 4e-18 of it); then 2^k in
 * two factors, each a normal float64, so a result below the smallest normal rounds once. Within
 * 3e-16 of e^x (relative) where e^x is a normal float64 (x above about −708.4), within one step of
 * the smallest subnormal below; every step is one float64 operation, none fused.
 */

/** below this, e^x is 0 in float64 (it underflows past the smallest subnormal near −745.13) */
export const EXP_UNDERFLOW = -746;

const LOG2E = 1.4426950408889634;
const ROUND = 6755399441055744;
const LN2_HI = 0.69314718036912382;
const LN2_LO = 1.9082149292705877e-10;
const C2 = 0.5;
const C3 = 0.16666666666666666;
const C4 = 0.041666666666666664;
const C5 = 0.0083333333333333332;
const C6 = 0.0013888888888888889;
const C7 = 0.00019841269841269841;
const C8 = 0.000024801587301587302;
const C9 = 0.0000027557319223985893;
const C10 = 2.7557319223985888e-7;
const C11 = 2.505210838544172e-8;
const C12 = 2.08767569878681e-9;
const C13 = 1.6059043836821613e-10;

/** 2^−i for i = 0 … 539, each exact (halving a normal power of two is exact) */
const HALVES = (() => {
  const t = new Float64Array(540);
  t[0] = 1;
  for (let i = 1; i < t.length; i++) t[i] = t[i - 1]! * 0.5;
  return t;
})();

/** e^x for EXP_UNDERFLOW ≤ x ≤ 0 (NaN gives NaN); below EXP_UNDERFLOW the caller takes 0. */
export function expOfNonPositive(x: number): number {
  const kf = x * LOG2E + ROUND - ROUND;
  const r = x - kf * LN2_HI - kf * LN2_LO;
  let p = C13 * r + C12;
  p = p * r + C11;
  p = p * r + C10;
  p = p * r + C9;
  p = p * r + C8;
  p = p * r + C7;
  p = p * r + C6;
  p = p * r + C5;
  p = p * r + C4;
  p = p * r + C3;
  p = p * r + C2;
  p = p * r + 1;
  p = p * r + 1;
  // k ≥ −1077 here, so each half of it is at least −539; NaN truncates to 0 as the kernel's does
  const k = kf | 0;
  const k1 = k >> 1;
  // (−k1 | 0): −0 as an index would leave the fast path of a typed array
  return p * HALVES[-k1 | 0]! * HALVES[k1 - k]!;
}
