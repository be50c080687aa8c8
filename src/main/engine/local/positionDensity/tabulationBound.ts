/**
 * How far the tabulated KDE (tabulatedKde.ts) can be from the exact sum. The kernel
 * K(x − y) = e^(−(x − y)²/2σ²) is interpolated in both arguments, x over the query's cell and y over
 * the sample's cell, at CELL_NODES Chebyshev nodes each:
 *   K − I_x I_y K = (K − I_x K) + I_x (K − I_y K),
 * and |I_x f| ≤ Λ · max |f at the nodes| (Λ the Lebesgue constant), so for cells whose centres are D
 * kernel widths apart (every pair of their points then lies within D ± w, w the cell width)
 *   |error| ≤ (1 + Λ) · 2(w/4)^n / n! · max over |u − D| ≤ w of |He_n(u)| e^(−u²/2),
 * He_n the n-th probabilists' Hermite polynomial (d^n/du^n e^(−u²/2) = (−1)^n He_n(u) e^(−u²/2)).
 * Over cells within REACH + w of each other that is a bound relative to the smallest kernel value
 * the pair can take, e^(−(D + w)²/2): `near`. Cells farther apart have every distance beyond REACH,
 * where the error is at most `far` in units of the kernel's peak, whatever the relative size.
 */
import { hermite } from '../../hostMath';
import { FLUSH_BELOW } from '../../model';
import { CELL_NODES, CELL_WIDTH, lebesgueConstant } from './chebyshevCells';

/** Kernel widths beyond which a pair counts as far (e^(−REACH²/2) = 2^−63). */
export const REACH = Math.sqrt(-2 * Math.log(FLUSH_BELOW));

export interface TabulationBounds {
  /** relative error bound for a sample within REACH + the cell width of the query's cell */
  near: number;
  /** absolute error bound, in units of the kernel's peak, for any farther sample */
  far: number;
  lebesgue: number;
}

/** |d^n/du^n e^(−u²/2)| */
function derivative(n: number, u: number): number {
  return Math.abs(hermite(n, u)) * Math.exp(-0.5 * u * u);
}

export function tabulationBounds(nodes: number = CELL_NODES, width: number = CELL_WIDTH): TabulationBounds {
  const lebesgue = lebesgueConstant(nodes);
  let factorial = 1;
  for (let k = 2; k <= nodes; k++) factorial *= k;
  const nodeProduct = (2 * (width / 4) ** nodes) / factorial;
  const scale = (1 + lebesgue) * nodeProduct;
  let near = 0;
  const centreSteps = 3000;
  const pairSteps = 300;
  for (let s = 0; s <= centreSteps; s++) {
    const d = ((REACH + width) * s) / centreSteps;
    let largest = 0;
    for (let t = 0; t <= pairSteps; t++) largest = Math.max(largest, derivative(nodes, d - width + (2 * width * t) / pairSteps));
    near = Math.max(near, (scale * largest) / Math.exp(-0.5 * (d + width) ** 2));
  }
  let far = 0;
  for (let u = REACH; u <= REACH + 60; u += 0.001) far = Math.max(far, scale * derivative(nodes, u));
  // sampled maxima of smooth functions on a fine step: a factor 2 covers what falls between samples
  return { near: 2 * near, far: 2 * far, lebesgue };
}
