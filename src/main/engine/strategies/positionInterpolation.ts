/**
 * The series strategy's exact handoff where positions are one-dimensional: decoding spikes its mark
 * series does not reach (on real tetrode marks, all of them) take every mark kernel entry, as the
 * compensated strategy does, but not the (E × P) position kernel. The encoding spikes are grouped
 * in cells INTERPOLATION_WIDTH kernel widths wide; within a cell the position kernel is a smooth
 * function of the spike's position, so it is interpolated at INTERPOLATION_NODES Chebyshev nodes:
 *   K(x_i − b_p) ≈ Σ_j L_j(x_i)·K(ξ_j − b_p),  L_j the cell's Lagrange basis,
 * and J[k, p] = (1/E) Σ_i Kmark[k, i]·Kpos[i, p] becomes per cell Σ_j (Σ_i Kmark[k, i]·L_j(x_i))·K(ξ_j − b_p):
 * 8 multiply-adds per mark kernel entry instead of one per bin the entry reaches (about 56 of 100 on
 * a production tetrode), and the weights never go to memory (one kernel, simd/kdeKernels.wat).
 *
 * Accuracy: the interpolation error of K at x is at most max|K^(8)|/8!·2(h/2)^8 over the cell
 * (h its half-width), which interpolationBound turns into a relative bound over every bin the cell
 * reaches; at 8 nodes and 0.2 widths it is below SERIES_RELATIVE_ERROR (tested), so, as for the
 * series, every J moves by at most that much relative (the terms are positive). Bins farther from a
 * cell than where every entry is below the flush bound's τ (positionReach, at most INTERPOLATION_REACH)
 * get no term, which model/flush.ts shows changes no J above the floor by more than FLUSH_TOLERANCE
 * where its bound holds (elsewhere the handoff is compensated's);
 * mark kernel entries below e^−87 of their normaliser count as e^−87 (the kernel's exp stays in the
 * normal range), less than that bound allows.
 */
import * as tf from '@tensorflow/tfjs-core';
import { maxFinite } from '../hostMath';
import { electrodeFlushIsSafe, electrodeFlushThreshold, logNormaliser } from '../kernelNormalisers';
import { EPS, FLOAT32_BYTES, FLUSH_BELOW, LOG_EPS } from '../model';
import { NO_WORK, type Work } from '../model/opWork';
import { interpolatedTerms } from '../ops';
import { forEachBlock, sliceRows } from './common';
import type { ElectrodeContext, Strategy } from './types';

/** Chebyshev nodes per cell: the kernel keeps one accumulator per node. */
export const INTERPOLATION_NODES = 8;
/** A cell's width in position-kernel widths. */
export const INTERPOLATION_WIDTH = 0.2;
/** Widths beyond a cell at which every kernel entry is below FLUSH_BELOW (e^(−R²/2) = 2^−63): farther bins get no term. */
export const INTERPOLATION_REACH = Math.sqrt(-2 * Math.log(FLUSH_BELOW));
/** The marks' scale beside 1/σ: the kernel's weight is then 2^−|a − b|² (simd/kdeKernels.wat). */
export const MARK_SCALE = Math.sqrt(0.5 * Math.LOG2E);
/** The most cells a plan spans (positions' range over INTERPOLATION_WIDTH widths): beyond it (a range of
 * ~800 000 widths, a unit or width that is surely wrong) the handoff is compensated's, whose memory
 * does not grow with the range. */
export const MAX_INTERPOLATION_CELLS = 1 << 22;
/** H carries 2^64, so that the products of small weights with it stay normal floats (no subnormal stalls); the offset takes it back. */
const H_SCALE_LOG2 = 64;
const LANES = 4;

/** Probabilists' Hermite polynomial He_n(z): d^n/dz^n e^(−z²/2) = (−1)^n He_n(z) e^(−z²/2). */
function hermite(n: number, z: number): number {
  let [prev, cur] = [1, z];
  if (n === 0) return 1;
  for (let k = 1; k < n; k++) [prev, cur] = [cur, z * cur - k * prev];
  return cur;
}

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

/** How big a plan is: what the work formulas read. */
export interface PlanSize {
  cells: number;
  spikeVectors: number;
  /** vectors of 4 bins in a row (the bins rounded up) */
  binVectors: number;
  /** Σ over cells of the bin vectors each reaches */
  storedBinVectors: number;
  spikeFloats: number;
  hFloats: number;
}

/** An electrode's encoding spikes in interpolatedTerms' layouts (kdeKernels.wat). */
export interface InterpolationPlan {
  /** per vector of 4 spikes: D × 4 marks over their widths, then 8 × 4 Lagrange weights */
  spikes: Float32Array;
  /** per cell: first and end spike vector, first and end bin vector, first float of its h */
  chunks: Int32Array;
  /** per cell and vector of 4 bins: 8 × 4 values 2^64·e^(−(ξ_j − b)²/2), 0 beyond the reach */
  h: Float32Array;
  /** the unit vector (D) the cells' spikes are ordered along: the scaled marks' first principal axis */
  direction: Float32Array;
  /** per spike vector: the running maximum of the projections from its cell's start, the running minimum from its end */
  bounds: Float32Array;
  size: PlanSize;
}

/** The bins rounded up to whole vectors (at least one): the kernel's row width. */
export function paddedBins(nBins: number): number {
  return Math.max(LANES, Math.ceil(nBins / LANES) * LANES);
}

/** How many cells a plan of these (finite) positions spans, from their range. */
export function interpolationCells(positions: ArrayLike<number>, nEnc: number, positionStd: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < nEnc; i++) {
    const v = positions[i]! / positionStd;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return nEnc === 0 ? 0 : Math.floor((hi - lo) / INTERPOLATION_WIDTH) + 1;
}

/**
 * Groups the spikes into cells by position (a counting sort: O(E)), and lays out each cell's marks
 * (float32 products y·(s/σ), s = MARK_SCALE, one rounding as the other strategies' y·(1/σ)), Lagrange
 * weights and node kernels.
 * positions (E) and centres (P) are one-dimensional; everything must be finite and span at most
 * MAX_INTERPOLATION_CELLS cells (interpolationApplies). Bins farther than `reach` widths from a cell
 * (at most INTERPOLATION_REACH, where the bound was computed) get no term.
 */
export function planInterpolation(
  positions: ArrayLike<number>, marks: ArrayLike<number>, nEnc: number, nFeatures: number, centers: ArrayLike<number>,
  positionStd: number, waveformStd: number[], reach = INTERPOLATION_REACH,
): InterpolationPlan {
  const T = INTERPOLATION_NODES;
  const D = nFeatures;
  const P = centers.length;
  const binVectors = paddedBins(P) / LANES;
  const x = new Float64Array(nEnc);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < nEnc; i++) {
    const v = positions[i]! / positionStd;
    x[i] = v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const b = new Float64Array(P);
  for (let p = 0; p < P; p++) b[p] = centers[p]! / positionStd;
  const nCells = Math.floor((hi - lo) / INTERPOLATION_WIDTH) + 1;
  if (!(nCells <= MAX_INTERPOLATION_CELLS)) {
    throw new Error(`planInterpolation: the positions span ${nCells} cells of ${INTERPOLATION_WIDTH} widths, more than ${MAX_INTERPOLATION_CELLS}`);
  }
  const invStd = waveformStd.map((s) => Math.fround(MARK_SCALE / Math.max(s, EPS)));
  const scaled = new Float32Array(nEnc * D);
  for (let i = 0; i < nEnc; i++) for (let d = 0; d < D; d++) scaled[i * D + d] = Math.fround(marks[i * D + d]!) * invStd[d]!;
  const direction = principalDirection(scaled, nEnc, D);
  const proj = new Float64Array(nEnc);
  let pLo = Infinity;
  let pHi = -Infinity;
  for (let i = 0; i < nEnc; i++) {
    let dot = 0;
    for (let d = 0; d < D; d++) dot += direction[d]! * scaled[i * D + d]!;
    proj[i] = dot;
    if (dot < pLo) pLo = dot;
    if (dot > pHi) pHi = dot;
  }
  // one counting sort by cell, then by projection bucket within the cell: neighbours in a vector
  // have close marks along the direction, so a row's reach along it skips whole vectors. The keys
  // number the cells that hold spikes (at most E of them), not every cell of the range.
  const cellOf = new Int32Array(nEnc);
  const denseOf = new Int32Array(nCells).fill(-1);
  let held = 0;
  for (let i = 0; i < nEnc; i++) {
    const c = Math.min(nCells - 1, Math.floor((x[i]! - lo) / INTERPOLATION_WIDTH));
    cellOf[i] = c;
    if (denseOf[c]! < 0) denseOf[c] = 1;
  }
  for (let c = 0; c < nCells; c++) if (denseOf[c]! > 0) denseOf[c] = held++;
  const bucketWidth = pHi > pLo ? (pHi - pLo) / PROJECTION_BUCKETS : 1;
  const keyOf = new Int32Array(nEnc);
  const keyStarts = new Int32Array(held * PROJECTION_BUCKETS + 1);
  for (let i = 0; i < nEnc; i++) {
    const key = denseOf[cellOf[i]!]! * PROJECTION_BUCKETS + Math.min(PROJECTION_BUCKETS - 1, Math.floor((proj[i]! - pLo) / bucketWidth));
    keyOf[i] = key;
    keyStarts[key + 1]!++;
  }
  for (let k = 0; k < keyStarts.length - 1; k++) keyStarts[k + 1]! += keyStarts[k]!;
  // each spike's place in that order: the layout below scatters the spikes there, reading them in
  // their own order (a gather in sorted order misses the cache twice per spike on a production tetrode)
  const slot = new Int32Array(nEnc);
  const next = keyStarts.slice(0, keyStarts.length - 1);
  for (let i = 0; i < nEnc; i++) slot[i] = next[keyOf[i]!]!++;
  // each held cell's first and end place in that order
  const starts = new Int32Array(held + 1);
  for (let k = 0; k <= held; k++) starts[k] = keyStarts[k * PROJECTION_BUCKETS]!;

  // Chebyshev nodes of the first kind on [−1, 1] and their Lagrange weights
  const unitNodes = Float64Array.from({ length: T }, (_, j) => Math.cos(((2 * j + 1) * Math.PI) / (2 * T)));
  const weights = lagrangeWeights(unitNodes);
  const half = INTERPOLATION_WIDTH / 2;
  const hScale = 2 ** H_SCALE_LOG2;
  const vecFloats = interpolatedTerms.spikeVectorFloats(D);

  const cells: { first: number; end: number; p0: number; p1: number; centre: number; v0: number }[] = [];
  // the held cells' index in `cells` (−1: reaching no bin) and first spike vector
  const cellIndex = new Int32Array(held).fill(-1);
  let spikeVectors = 0;
  let storedBinVectors = 0;
  for (let c = 0; c < nCells; c++) {
    const k = denseOf[c]!;
    if (k < 0) continue;
    const count = starts[k + 1]! - starts[k]!;
    const cellLo = lo + c * INTERPOLATION_WIDTH;
    const centre = cellLo + half;
    // bins within the reach of the cell [cellLo, cellLo + width]
    let first = -1;
    let last = -1;
    for (let p = 0; p < P; p++) {
      const gap = Math.max(cellLo - b[p]!, b[p]! - (cellLo + INTERPOLATION_WIDTH), 0);
      if (gap <= reach) {
        if (first < 0) first = p;
        last = p;
      }
    }
    if (first < 0) continue;
    const vectors = Math.ceil(count / LANES);
    const p0 = Math.floor(first / LANES);
    const p1 = Math.floor(last / LANES) + 1;
    cellIndex[k] = cells.length;
    cells.push({ first: starts[k]!, end: starts[k + 1]!, p0, p1, centre, v0: spikeVectors });
    spikeVectors += vectors;
    storedBinVectors += p1 - p0;
  }

  const spikes = new Float32Array(spikeVectors * vecFloats);
  const chunks = new Int32Array(cells.length * 5);
  const h = new Float32Array(storedBinVectors * T * LANES);
  const bounds = new Float32Array(2 * spikeVectors);
  const sortedProj = new Float64Array(nEnc);
  for (let i = 0; i < nEnc; i++) {
    const ci = cellIndex[(keyOf[i]! / PROJECTION_BUCKETS) | 0]!;
    sortedProj[slot[i]!] = proj[i]!;
    if (ci < 0) continue;
    const cell = cells[ci]!;
    const k = slot[i]! - cell.first;
    const base = (cell.v0 + (k >> 2)) * vecFloats + (k & 3);
    for (let d = 0; d < D; d++) spikes[base + d * LANES] = scaled[i * D + d]!;
    lagrangeBasis((x[i]! - cell.centre) / half, unitNodes, weights, spikes, base + D * LANES);
  }
  let hAt = 0;
  for (let ci = 0; ci < cells.length; ci++) {
    const cell = cells[ci]!;
    const v0 = cell.v0;
    const v = v0 + ((cell.end - cell.first + LANES - 1) >> 2);
    runningBounds(sortedProj, cell.first, cell.end, bounds, v0);
    chunks.set([v0, v, cell.p0, cell.p1, hAt], ci * 5);
    for (let pv = cell.p0; pv < cell.p1; pv++) {
      for (let lane = 0; lane < LANES; lane++) {
        const p = pv * LANES + lane;
        if (p >= P) continue;
        const gap = Math.max(cell.centre - half - b[p]!, b[p]! - (cell.centre + half), 0);
        if (gap > reach) continue;
        for (let j = 0; j < T; j++) {
          const z = cell.centre + half * unitNodes[j]! - b[p]!;
          h[hAt + j * LANES + lane] = hScale * Math.exp(-0.5 * z * z);
        }
      }
      hAt += T * LANES;
    }
  }
  return {
    spikes, chunks, h, direction: Float32Array.from(direction), bounds,
    size: { cells: cells.length, spikeVectors, binVectors, storedBinVectors, spikeFloats: spikes.length, hFloats: h.length },
  };
}

/** 1/Π_{k≠j}(ξ_j − ξ_k) for each node: the Lagrange basis' denominators. */
function lagrangeWeights(nodes: Float64Array): Float64Array {
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
function lagrangeBasis(u: number, nodes: Float64Array, weights: Float64Array, out: Float32Array, at: number): void {
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
/** Projection buckets per cell for the order within it. */
const PROJECTION_BUCKETS = 64;
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

/**
 * The first principal axis of the scaled marks (n × D), by power iteration on their covariance
 * (D ≤ 8): the direction along which they spread most, so the one that separates rows from spikes
 * best. Any unit vector keeps the skipping exact; this one makes it skip most.
 */
function principalDirection(scaled: Float32Array, n: number, D: number): Float64Array {
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
function runningBounds(sorted: Float64Array, first: number, end: number, bounds: Float32Array, v0: number): void {
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

function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

/**
 * Whether the interpolated handoff runs for this electrode and these decoding marks (the encoding
 * and decoding marks as the caller already holds them on the host, row-major): the wasm
 * kernels, one position dimension, spikes to interpolate, finite positions, marks and bins (a
 * non-finite one spreads to every bin in the exact product, which a cell's bins cannot mirror), a
 * range of positions of at most MAX_INTERPOLATION_CELLS cells, and a flush that model/flush.ts
 * shows to be safe at the electrode's largest bias.
 */
export async function interpolationApplies(ctx: ElectrodeContext, encMarks: ArrayLike<number>, decMarks: ArrayLike<number>): Promise<boolean> {
  if (!interpolatedTerms.runsFused() || ctx.encPositions.shape[1] !== 1 || ctx.nEnc < 1 || ctx.nBins < 1 || ctx.positionStd.length !== 1) return false;
  const maxBias = maxFinite(await ctx.bias.data());
  if (!electrodeFlushIsSafe(ctx.positionStd, ctx.waveformStd, maxBias)) return false;
  const [positions, centers] = await Promise.all([ctx.encPositions.data(), ctx.centers.data()]);
  return (
    allFinite(positions) && allFinite(encMarks) && allFinite(centers) && allFinite(decMarks) && ctx.positionStd[0]! > 0 &&
    interpolationCells(positions, ctx.nEnc, ctx.positionStd[0]!) <= MAX_INTERPOLATION_CELLS
  );
}

/** The plan's build, for the roofline: a pass over the spikes (cell, marks, 8 basis values) and an exp per node and reached bin. */
function planWork(nEnc: number, nFeatures: number, nBins: number, cellsAtMost: number): Work {
  const T = INTERPOLATION_NODES;
  const out = FLOAT32_BYTES * nEnc * (nFeatures + T);
  return { ...NO_WORK, otherFlops: nEnc * (4 * T + 2 * nFeatures + 4), exps: cellsAtMost * T * nBins, bytes: out + FLOAT32_BYTES * nEnc * (1 + nFeatures), streamBytes: out };
}

/**
 * One block of b rows in the kernel: per weight it formed (the spike vectors its rows took, which the
 * kernel counts: the vectors out of a row's reach cost nothing) the D differences and squares, one
 * exp and 8 multiply-adds into the cell's sums; per row and cell the projection, the two searches,
 * the sums' lane totals and 8 multiply-adds per bin it reaches; per row the log and the epilogue.
 * The cells' spikes are read once per block (they stay in cache over its rows).
 */
function blockWork(b: number, plan: PlanSize, nFeatures: number, vectorsTaken: number): Work {
  const T = INTERPOLATION_NODES;
  const weights = LANES * vectorsTaken;
  const m = plan.binVectors * LANES;
  return {
    ...NO_WORK,
    gemmFlops: 2 * T * (weights + b * LANES * plan.storedBinVectors),
    otherFlops: weights * (3 * nFeatures + 4) + b * plan.cells * (T * 2 * LANES + 2 * nFeatures + 30) + 4 * b * m,
    exps: weights,
    logs: b * m,
    bytes: FLOAT32_BYTES * (plan.spikeFloats + plan.hFloats + b * nFeatures + 2 * b * m),
    streamBytes: FLOAT32_BYTES * (plan.spikeFloats + plan.hFloats),
  };
}

const PLAN_KIND = `position interpolation, ${INTERPOLATION_NODES} nodes per ${INTERPOLATION_WIDTH} widths, marks in cell and projection order`;

/**
 * The handoff itself, for electrodes where interpolationApplies: the plan (kept with the model like a
 * position kernel, so the windows of a decode reuse it), then one kernel call per block.
 */
export const interpolated: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    const D = ctx.nFeatures;
    // one τ for both sides: bins beyond positionReach and weights beyond projectionReach drop below it
    const tau = electrodeFlushThreshold(ctx.positionStd, ctx.waveformStd, maxFinite(await ctx.bias.data()));
    const binReach = positionReach(tau);
    const { tensors, owned } = await ctx.positionKernel(`${PLAN_KIND}, bins within ${binReach.toFixed(3)} widths`, async () => {
      const [positions, marks, centers] = await Promise.all([ctx.encPositions.data(), ctx.encMarks.data(), ctx.centers.data()]);
      const cellsAtMost = Math.min(ctx.nEnc, interpolationCells(positions, ctx.nEnc, ctx.positionStd[0]!));
      return stage('position-kernel', () => {
        const plan = planInterpolation(positions, marks, ctx.nEnc, D, centers, ctx.positionStd[0]!, ctx.waveformStd, binReach);
        const z = plan.size;
        const counts = Int32Array.of(z.cells, z.spikeVectors, z.binVectors, z.storedBinVectors, z.spikeFloats, z.hFloats);
        // the counts travel with the tensors, for a later call that finds them kept
        return [
          tf.tensor1d(plan.spikes), tf.tensor2d(plan.chunks, [z.cells, 5], 'int32'), tf.tensor1d(plan.h), tf.tensor1d(counts, 'int32'),
          tf.tensor1d(plan.direction), tf.tensor1d(plan.bounds),
        ];
      }, { work: planWork(ctx.nEnc, D, ctx.nBins, cellsAtMost) });
    });
    const [spikes, chunks, h, counts, direction, bounds] = tensors as [tf.Tensor1D, tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.Tensor1D, tf.Tensor1D];
    try {
      const [cells, spikeVectors, binVectors, storedBinVectors, spikeFloats, hFloats] = (await counts.data()) as unknown as number[];
      const shape: PlanSize = { cells: cells!, spikeVectors: spikeVectors!, binVectors: binVectors!, storedBinVectors: storedBinVectors!, spikeFloats: spikeFloats!, hFloats: hFloats! };
      const m = shape.binVectors * LANES;
      const sd = ctx.waveformStd.map((s) => Math.max(s, EPS));
      const attrs: interpolatedTerms.TermsAttrs = {
        off: logNormaliser(sd) + logNormaliser(ctx.positionStd) - Math.log(ctx.nEnc) - H_SCALE_LOG2 * Math.LN2,
        floor: LOG_EPS,
        reach: projectionReach(tau),
      };
      const invStd = tf.tensor1d(sd.map((s) => MARK_SCALE / s));
      const bias = m === ctx.nBins ? ctx.bias : tf.pad(ctx.bias, [[0, m - ctx.nBins]]);
      try {
        await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
          // the kernel says how many spike vectors it took; the recorder reads a span's args when it closes
          const args: { work: Work } = { work: blockWork(s1 - s0, shape, D, 0) };
          const terms = await stage('reduce', () =>
            tf.tidy(() => {
              const a = tf.mul(sliceRows(decMarks, s0, s1), invStd) as tf.Tensor2D;
              const [out, taken] = interpolatedTerms.run(a, { spikes, chunks, h, direction, bounds }, bias, attrs);
              args.work = blockWork(s1 - s0, shape, D, taken.dataSync()[0]!);
              return m === ctx.nBins ? out : tf.slice(out, [0, 0], [s1 - s0, ctx.nBins]);
            }),
            args,
          );
          await emit(s0, terms);
        });
      } finally {
        invStd.dispose();
        if (bias !== ctx.bias) bias.dispose();
      }
    } finally {
      if (owned) tf.dispose(tensors);
    }
  },
};
