/**
 * The interpolated handoff's accuracy: the position kernel interpolated in cells INTERPOLATION_WIDTH
 * kernel widths wide at INTERPOLATION_NODES Chebyshev nodes. The interpolation error of K at x is
 * at most max|K^(8)|/8!·2(h/2)^8 over the cell (h its half-width), which interpolationBound turns
 * into a relative bound over every bin the cell reaches; at 8 nodes and 0.2 widths it is below
 * SERIES_RELATIVE_ERROR (tested), so, as for the series, every J moves by at most that much
 * relative (the terms are positive). Also how far, for a flush threshold τ, the handoff looks along
 * positions and along the marks' principal axis.
 */
import { hermite } from '../../hostMath';
import { FLUSH_BELOW } from '../../model';

/** Chebyshev nodes per cell: the kernel keeps one accumulator per node. */
export const INTERPOLATION_NODES = 8;
/** A cell's width in position-kernel widths. */
export const INTERPOLATION_WIDTH = 0.2;
/** Widths beyond a cell at which every kernel entry is below FLUSH_BELOW (e^(−R²/2) = 2^−63): farther bins get no term. */
export const INTERPOLATION_REACH = Math.sqrt(-2 * Math.log(FLUSH_BELOW));

/**
 * The largest relative interpolation error of e^(−z²/2) over a cell `width` wide (in kernel widths)
 * with `nodes` Chebyshev nodes, over every bin whose distance from the cell is at most `reach`:
 * max over the bin's distance from the cell's centre of
 *   [max over the cell |He_n·e^(−z²/2)| / n! · 2(h/2)^n] / [min over the cell e^(−z²/2)],
 * sampled finely (the functions are smooth on this scale), with n = nodes and h = width/2.
 */
export function interpolationBound(nodes: number, width: number, reach: number): number {
  const h = width / 2;
  let factorial = 1;
  for (let k = 2; k <= nodes; k++) factorial *= k;
  const nodeProduct = (2 * (h / 2) ** nodes) / factorial;
  let worst = 0;
  const centreSteps = 4000;
  const cellSteps = 200;
  for (let s = 0; s <= centreSteps; s++) {
    const zc = ((reach + h) * s) / centreSteps;
    let derivative = 0;
    let smallest = Infinity;
    for (let t = 0; t <= cellSteps; t++) {
      const z = zc - h + (2 * h * t) / cellSteps;
      const g = Math.exp(-0.5 * z * z);
      derivative = Math.max(derivative, Math.abs(hermite(nodes, z)) * g);
      smallest = Math.min(smallest, g);
    }
    worst = Math.max(worst, (derivative * nodeProduct) / smallest);
  }
  return worst;
}

/**
 * How far along the direction a row looks, in the kernel's units (where a weight is 2^−|a − b|²):
 * a spike beyond it is farther in mark space too, its weight below 2^−reach², and model/flush.ts
 * lets the kernel drop weights below the largest τ its bound allows at the electrode's largest bias
 * (electrodeFlushThreshold; at least 2^−63 wherever this handoff runs), so reach = √(−log2 τ), at
 * most √63. The bounds are rounded outward to float32, and the kernel widens the reach by 2^−20 of
 * the row's Σ|a_d·u_d| for its own float32 dot.
 */
export function projectionReach(tau: number): number {
  return Math.sqrt(Math.min(63, Math.max(0, -Math.log2(Math.max(tau, FLUSH_BELOW)))));
}

/**
 * How far from a cell its bins get a term, in position widths: where every kernel entry is below the
 * same τ (e^{−r²/2} = τ), at most INTERPOLATION_REACH (τ = 2^−63).
 */
export function positionReach(tau: number): number {
  return Math.min(INTERPOLATION_REACH, Math.sqrt(Math.max(0, -2 * Math.log(Math.max(tau, FLUSH_BELOW)))));
}
