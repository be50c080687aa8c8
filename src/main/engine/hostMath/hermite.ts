/**
 * The probabilists' Hermite polynomials, which bound how far a polynomial interpolation of a
 * Gaussian kernel can be from it: d^n/dz^n e^(−z²/2) = (−1)^n He_n(z) e^(−z²/2).
 */

/** He_n(z), by the recurrence He_(k+1) = z·He_k − k·He_(k−1). */
export function hermite(n: number, z: number): number {
  if (n === 0) return 1;
  let [previous, current] = [1, z];
  for (let k = 1; k < n; k++) [previous, current] = [current, z * current - k * previous];
  return current;
}
