/**
 * Chebyshev interpolation on cells of a uniform lattice over one position dimension: the nodes of a
 * cell, the Lagrange basis at a point (barycentric form, stable at any point of the cell) and the
 * basis' Lebesgue constant, which bounds how much interpolating a function can magnify an error in
 * its node values.
 */

/** Nodes per cell. */
export const CELL_NODES = 24;
/** A cell's width in kernel widths (σ). */
export const CELL_WIDTH = 0.75;

/** The first-kind Chebyshev nodes on [−1, 1]: t_l = cos((2l + 1)π / 2n). */
export function chebyshevNodes(n: number = CELL_NODES): Float64Array {
  return Float64Array.from({ length: n }, (_, l) => Math.cos(((2 * l + 1) * Math.PI) / (2 * n)));
}

/** Barycentric weights of the first-kind nodes: (−1)^l sin((2l + 1)π / 2n), up to a common factor. */
export function barycentricWeights(n: number = CELL_NODES): Float64Array {
  return Float64Array.from({ length: n }, (_, l) => (l % 2 === 0 ? 1 : -1) * Math.sin(((2 * l + 1) * Math.PI) / (2 * n)));
}

/**
 * The Lagrange basis L_l(t) of `nodes` at t ∈ [−1, 1] into `out`. At a node the basis is that
 * node's indicator (the barycentric quotient would divide by zero there).
 */
export function lagrangeBasis(t: number, nodes: Float64Array, weights: Float64Array, out: Float64Array): void {
  const n = nodes.length;
  let denominator = 0;
  for (let l = 0; l < n; l++) {
    const diff = t - nodes[l]!;
    if (diff === 0) {
      out.fill(0);
      out[l] = 1;
      return;
    }
    const v = weights[l]! / diff;
    out[l] = v;
    denominator += v;
  }
  const inverse = 1 / denominator;
  for (let l = 0; l < n; l++) out[l]! *= inverse;
}

/** max over t ∈ [−1, 1] of Σ_l |L_l(t)|, sampled finely and rounded up by 1 %. */
export function lebesgueConstant(n: number = CELL_NODES): number {
  const nodes = chebyshevNodes(n);
  const weights = barycentricWeights(n);
  const basis = new Float64Array(n);
  let worst = 0;
  const steps = 20_000;
  for (let s = 0; s <= steps; s++) {
    lagrangeBasis(-1 + (2 * s) / steps, nodes, weights, basis);
    let total = 0;
    for (let l = 0; l < n; l++) total += Math.abs(basis[l]!);
    worst = Math.max(worst, total);
  }
  return worst * 1.01;
}
