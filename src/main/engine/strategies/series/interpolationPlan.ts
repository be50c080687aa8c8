/**
 * The layout plan of the series strategy's interpolated handoff (interpolated.ts): the encoding
 * spikes grouped in cells INTERPOLATION_WIDTH kernel widths wide, within a cell ordered along the
 * marks' principal axis, each spike's marks and Lagrange weights at the cell's nodes, each cell's
 * node kernels over the bins it reaches, all in the interpolated-terms kernel's layouts. Bins
 * farther from a cell than where every entry is below the flush bound's τ (positionReach, at most
 * INTERPOLATION_REACH) get no term, which model/flush.ts shows changes no J above the floor by more
 * than FLUSH_TOLERANCE where its bound holds.
 */
import { EPS } from '../../model';
import { interpolatedTerms } from '../../ops';
import { INTERPOLATION_NODES, INTERPOLATION_REACH, INTERPOLATION_WIDTH } from './interpolationBound';
import { LANES, lagrangeBasis, NODE_WEIGHTS, nodeKernels, principalDirection, runningBounds, UNIT_NODES } from './interpolationGeometry';

/** The marks' scale beside 1/σ: the kernel's weight is then 2^−|a − b|² (simd/kdeKernels.wat). */
export const MARK_SCALE = Math.sqrt(0.5 * Math.LOG2E);
/** The most cells a plan spans (positions' range over INTERPOLATION_WIDTH widths): beyond it (a range of
 * ~800 000 widths, a unit or width that is surely wrong) the handoff is compensated's, whose memory
 * does not grow with the range. */
export const MAX_INTERPOLATION_CELLS = 1 << 22;
/** H carries 2^64, so that the products of small weights with it stay normal floats (no subnormal stalls); the offset takes it back. */
export const H_SCALE_LOG2 = 64;

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
  const spikes = scaledSpikes(positions, marks, nEnc, nFeatures, positionStd, waveformStd);
  const b = Float64Array.from(centers, (c) => c / positionStd);
  const order = cellOrder(spikes);
  const cells = reachingCells(spikes, order, b, reach);
  const laid = layoutSpikes(spikes, order, cells);
  const nodes = layoutNodeKernels(cells, laid.sortedProj, b, reach);
  return {
    spikes: laid.spikes, chunks: nodes.chunks, h: nodes.h, direction: Float32Array.from(spikes.direction), bounds: nodes.bounds,
    size: {
      cells: cells.list.length, spikeVectors: cells.spikeVectors, binVectors: paddedBins(b.length) / LANES, storedBinVectors: cells.storedBinVectors,
      spikeFloats: laid.spikes.length, hFloats: nodes.h.length,
    },
  };
}

/** The encoding spikes over the widths: positions x and their range, marks scaled (float32) and their projections on the principal axis. */
interface ScaledSpikes {
  nEnc: number;
  D: number;
  x: Float64Array;
  lo: number;
  nCells: number;
  scaled: Float32Array;
  direction: Float64Array;
  proj: Float64Array;
  pLo: number;
  pHi: number;
}

function scaledSpikes(
  positions: ArrayLike<number>, marks: ArrayLike<number>, nEnc: number, D: number, positionStd: number, waveformStd: number[],
): ScaledSpikes {
  const x = new Float64Array(nEnc);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < nEnc; i++) {
    const v = positions[i]! / positionStd;
    x[i] = v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
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
  return { nEnc, D, x, lo, nCells, scaled, direction, proj, pLo, pHi };
}

/** The spikes' order: by cell, then by projection bucket within the cell. */
interface CellOrder {
  /** per cell of the range, its index among the cells that hold spikes (−1: none) */
  denseOf: Int32Array;
  /** the cells that hold spikes */
  held: number;
  keyOf: Int32Array;
  /** each spike's place in the order */
  slot: Int32Array;
  /** each held cell's first and end place in the order */
  starts: Int32Array;
}

/**
 * One counting sort by cell, then by projection bucket within the cell: neighbours in a vector
 * have close marks along the direction, so a row's reach along it skips whole vectors. The keys
 * number the cells that hold spikes (at most E of them), not every cell of the range.
 */
function cellOrder({ nEnc, x, lo, nCells, proj, pLo, pHi }: ScaledSpikes): CellOrder {
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
  // each spike's place in that order: the layout scatters the spikes there, reading them in their
  // own order (a gather in sorted order misses the cache twice per spike)
  const slot = new Int32Array(nEnc);
  const next = keyStarts.slice(0, keyStarts.length - 1);
  for (let i = 0; i < nEnc; i++) slot[i] = next[keyOf[i]!]!++;
  const starts = new Int32Array(held + 1);
  for (let k = 0; k <= held; k++) starts[k] = keyStarts[k * PROJECTION_BUCKETS]!;
  return { denseOf, held, keyOf, slot, starts };
}

interface PlannedCell {
  first: number;
  end: number;
  p0: number;
  p1: number;
  centre: number;
  v0: number;
}

/** The held cells that reach a bin, in position order, with their spike and bin vectors. */
interface ReachingCells {
  list: PlannedCell[];
  /** per held cell its index in `list` (−1: reaching no bin) */
  cellIndex: Int32Array;
  spikeVectors: number;
  storedBinVectors: number;
}

function reachingCells({ lo, nCells }: ScaledSpikes, { denseOf, held, starts }: CellOrder, b: Float64Array, reach: number): ReachingCells {
  const half = INTERPOLATION_WIDTH / 2;
  const list: PlannedCell[] = [];
  const cellIndex = new Int32Array(held).fill(-1);
  let spikeVectors = 0;
  let storedBinVectors = 0;
  for (let c = 0; c < nCells; c++) {
    const k = denseOf[c]!;
    if (k < 0) continue;
    const count = starts[k + 1]! - starts[k]!;
    const cellLo = lo + c * INTERPOLATION_WIDTH;
    const [first, last] = binsInReach(b, cellLo, reach);
    if (first < 0) continue;
    const p0 = Math.floor(first / LANES);
    const p1 = Math.floor(last / LANES) + 1;
    cellIndex[k] = list.length;
    list.push({ first: starts[k]!, end: starts[k + 1]!, p0, p1, centre: cellLo + half, v0: spikeVectors });
    spikeVectors += Math.ceil(count / LANES);
    storedBinVectors += p1 - p0;
  }
  return { list, cellIndex, spikeVectors, storedBinVectors };
}

/** The first and last bin within the reach of the cell [cellLo, cellLo + width] ([−1, −1]: none). */
function binsInReach(b: Float64Array, cellLo: number, reach: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let p = 0; p < b.length; p++) {
    const gap = Math.max(cellLo - b[p]!, b[p]! - (cellLo + INTERPOLATION_WIDTH), 0);
    if (gap <= reach) {
      if (first < 0) first = p;
      last = p;
    }
  }
  return [first, last];
}

/** Each reaching cell's spikes in their vectors (marks, then Lagrange weights), and every spike's projection in the order. */
function layoutSpikes(
  { nEnc, D, x, scaled, proj }: ScaledSpikes, { keyOf, slot }: CellOrder, cells: ReachingCells,
): { spikes: Float32Array; sortedProj: Float64Array } {
  const half = INTERPOLATION_WIDTH / 2;
  const vecFloats = interpolatedTerms.spikeVectorFloats(D);
  const spikes = new Float32Array(cells.spikeVectors * vecFloats);
  const sortedProj = new Float64Array(nEnc);
  for (let i = 0; i < nEnc; i++) {
    const ci = cells.cellIndex[(keyOf[i]! / PROJECTION_BUCKETS) | 0]!;
    sortedProj[slot[i]!] = proj[i]!;
    if (ci < 0) continue;
    const cell = cells.list[ci]!;
    const k = slot[i]! - cell.first;
    const base = (cell.v0 + (k >> 2)) * vecFloats + (k & 3);
    for (let d = 0; d < D; d++) spikes[base + d * LANES] = scaled[i * D + d]!;
    lagrangeBasis((x[i]! - cell.centre) / half, UNIT_NODES, NODE_WEIGHTS, spikes, base + D * LANES);
  }
  return { spikes, sortedProj };
}

/** Per reaching cell its table row, its vectors' projection bounds and its node kernels over the bins it reaches. */
function layoutNodeKernels(
  cells: ReachingCells, sortedProj: Float64Array, b: Float64Array, reach: number,
): { chunks: Int32Array; h: Float32Array; bounds: Float32Array } {
  const T = INTERPOLATION_NODES;
  const chunks = new Int32Array(cells.list.length * 5);
  const h = new Float32Array(cells.storedBinVectors * T * LANES);
  const bounds = new Float32Array(2 * cells.spikeVectors);
  let hAt = 0;
  for (let ci = 0; ci < cells.list.length; ci++) {
    const cell = cells.list[ci]!;
    const v0 = cell.v0;
    const v = v0 + ((cell.end - cell.first + LANES - 1) >> 2);
    runningBounds(sortedProj, cell.first, cell.end, bounds, v0);
    chunks.set([v0, v, cell.p0, cell.p1, hAt], ci * 5);
    for (let pv = cell.p0; pv < cell.p1; pv++) {
      nodeKernels(cell.centre, pv, b, reach, h, hAt, 2 ** H_SCALE_LOG2);
      hAt += T * LANES;
    }
  }
  return { chunks, h, bounds };
}

/** Projection buckets per cell for the order within it. */
const PROJECTION_BUCKETS = 64;
