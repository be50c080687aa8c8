/**
 * Geometry the interpolation plan lays its cells out with: the Lagrange basis at the nodes, the
 * marks' principal axis, the projection bounds a row's search stops at, rounded outward to
 * float32, and a cell's node kernels over the bins it reaches.
 */
import { INTERPOLATION_NODES, INTERPOLATION_WIDTH } from './interpolationBound';

/** Spikes per SIMD vector: the kernel's lanes. */
export const LANES = 4;

/** 1/Π_{k≠j}(ξ_j − ξ_k) for each node: the Lagrange basis' denominators. */
export function lagrangeWeights(nodes: Float64Array): Float64Array {
  return nodes.map((xj, j) => 1 / nodes.reduce((prod, xk, k) => (k === j ? prod : prod * (xj - xk)), 1));
}

/**
 * The Lagrange basis at the 8 nodes evaluated at u, written to out[at + 4j] (a spike vector's lane):
 * L_j(u) = w_j·Π_{k≠j}(u − ξ_k), the product as the factors before j times those after it (prefix
 * and suffix products). No division and no special case at a node (where it is exactly 1 and 0),
 * and on [−1, 1] every factor is below 2, so the products keep float64's relative precision.
 * Written out for 8 nodes (the kernel's accumulators): the loop form kept its products in arrays
 * and cost about a third of the plan.
 */
export function lagrangeBasis(u: number, nodes: Float64Array, weights: Float64Array, out: Float32Array, at: number): void {
  const d0 = u - nodes[0]!;
  const d1 = u - nodes[1]!;
  const d2 = u - nodes[2]!;
  const d3 = u - nodes[3]!;
  const d4 = u - nodes[4]!;
  const d5 = u - nodes[5]!;
  const d6 = u - nodes[6]!;
  const d7 = u - nodes[7]!;
  const p1 = d0;
  const p2 = p1 * d1;
  const p3 = p2 * d2;
  const p4 = p3 * d3;
  const p5 = p4 * d4;
  const p6 = p5 * d5;
  const p7 = p6 * d6;
  const s6 = d7;
  const s5 = s6 * d6;
  const s4 = s5 * d5;
  const s3 = s4 * d4;
  const s2 = s3 * d3;
  const s1 = s2 * d2;
  const s0 = s1 * d1;
  out[at] = weights[0]! * s0;
  out[at + 4] = weights[1]! * p1 * s1;
  out[at + 8] = weights[2]! * p2 * s2;
  out[at + 12] = weights[3]! * p3 * s3;
  out[at + 16] = weights[4]! * p4 * s4;
  out[at + 20] = weights[5]! * p5 * s5;
  out[at + 24] = weights[6]! * p6 * s6;
  out[at + 28] = weights[7]! * p7;
}

/** Spikes the principal axis is estimated from. */
const DIRECTION_SAMPLES = 4096;

/**
 * The first principal axis of the scaled marks (n × D), by power iteration on their covariance
 * (D ≤ 8): the direction along which they spread most, so the one that separates rows from spikes
 * best. Any unit vector keeps the skipping exact; this one makes it skip most.
 */
export function principalDirection(scaled: Float32Array, n: number, D: number): Float64Array {
  // a few thousand spikes spread over the electrode fix the axis as well as all of them would
  const stride = Math.max(1, Math.floor(n / DIRECTION_SAMPLES));
  const taken = Math.ceil(n / stride);
  const mean = new Float64Array(D);
  for (let i = 0; i < n; i += stride) for (let d = 0; d < D; d++) mean[d]! += scaled[i * D + d]! / taken;
  const cov = new Float64Array(D * D);
  const row = new Float64Array(D);
  for (let i = 0; i < n; i += stride) {
    for (let d = 0; d < D; d++) row[d] = scaled[i * D + d]! - mean[d]!;
    for (let a = 0; a < D; a++) for (let c = 0; c < D; c++) cov[a * D + c]! += row[a]! * row[c]!;
  }
  let u = new Float64Array(D).fill(1 / Math.sqrt(D));
  for (let step = 0; step < 100; step++) {
    const w = new Float64Array(D);
    for (let a = 0; a < D; a++) for (let c = 0; c < D; c++) w[a]! += cov[a * D + c]! * u[c]!;
    const norm = Math.hypot(...w);
    if (!(norm > 0)) break;
    u = w.map((v) => v / norm);
  }
  return u;
}

const float32Scratch = new Float32Array(1);
const float32Bits = new Int32Array(float32Scratch.buffer);

/** The smallest float32 at or above v (finite). */
function float32Above(v: number): number {
  const f = Math.fround(v);
  if (f >= v) return f;
  float32Scratch[0] = f;
  float32Bits[0]! += f >= 0 ? 1 : -1;
  return float32Scratch[0]!;
}

/** bounds of a cell's vectors (from v0, projections sorted[first … end)): running max of each vector's largest projection, running min from the end of its smallest. */
export function runningBounds(sorted: Float64Array, first: number, end: number, bounds: Float32Array, v0: number): void {
  const vectors = (end - first + LANES - 1) >> 2;
  let top = -Infinity;
  for (let k = 0; k < vectors; k++) {
    for (let s = first + 4 * k; s < Math.min(end, first + 4 * k + 4); s++) top = Math.max(top, sorted[s]!);
    bounds[2 * (v0 + k)] = float32Above(top);
  }
  let bottom = Infinity;
  for (let k = vectors - 1; k >= 0; k--) {
    for (let s = first + 4 * k; s < Math.min(end, first + 4 * k + 4); s++) bottom = Math.min(bottom, sorted[s]!);
    bounds[2 * (v0 + k) + 1] = -float32Above(-bottom);
  }
}

/** Chebyshev nodes of the first kind on [−1, 1], and their Lagrange weights. */
export const UNIT_NODES = Float64Array.from({ length: INTERPOLATION_NODES }, (_, j) => Math.cos(((2 * j + 1) * Math.PI) / (2 * INTERPOLATION_NODES)));
export const NODE_WEIGHTS = lagrangeWeights(UNIT_NODES);

/** One vector of four bins' kernels at a cell's nodes, hScale·e^(−(ξ_j − b)²/2), into h at hAt; 0 beyond the reach. */
export function nodeKernels(centre: number, pv: number, b: Float64Array, reach: number, h: Float32Array, hAt: number, hScale: number): void {
  const half = INTERPOLATION_WIDTH / 2;
  for (let lane = 0; lane < LANES; lane++) {
    const p = pv * LANES + lane;
    if (p >= b.length) continue;
    const gap = Math.max(centre - half - b[p]!, b[p]! - (centre + half), 0);
    if (gap > reach) continue;
    for (let j = 0; j < INTERPOLATION_NODES; j++) {
      const z = centre + half * UNIT_NODES[j]! - b[p]!;
      h[hAt + j * LANES + lane] = hScale * Math.exp(-0.5 * z * z);
    }
  }
}
