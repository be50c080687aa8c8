/**
 * A one-dimensional Gaussian KDE, log[(1/n) Σ_i K_σ(x, s_i)], at many query points for the cost of
 * a few per point: the samples are spread onto the Chebyshev nodes of their lattice cell (each
 * sample's Lagrange basis values, summed per cell), the kernel is summed node to node between
 * cells, and each query interpolates its cell's node sums. The local likelihood needs the
 * occupancy KDE of every position sample at every row and every spike, and each electrode's ground
 * KDE at every row: evaluated pair by pair that is (samples × rows) kernels, hours on a recording.
 *
 * Every query carries the bound of tabulationBound.ts plus the float64 rounding of the sums; where
 * that bound is not below MAX_RELATIVE_ERROR of the tabulated value (a query far from every sample,
 * whose density is a far tail) the query is returned in `exact` for the caller to evaluate pair by
 * pair. Sums run in float64; the kernel is the unnormalised e^(−u²/2), the normaliser added in log.
 */
import { logNormaliser } from '../../hostMath';
import { barycentricWeights, CELL_NODES, CELL_WIDTH, chebyshevNodes, lagrangeBasis } from './chebyshevCells';
import { tabulationBounds, type TabulationBounds } from './tabulationBound';

/** The largest relative error a tabulated value may carry; farther queries go the exact way. */
export const MAX_RELATIVE_ERROR = 1e-7;
/** Lattice cells at most: a kernel much narrower than the range of positions is not worth tabulating. */
const MAX_CELLS = 1 << 16;
/** Cell offsets beyond which every kernel value is 0 in float64 (e^(−u²/2) underflows past u ≈ 38.6). */
const BAND_CELLS = Math.ceil(39 / CELL_WIDTH) + 1;
const UNIT_ROUNDOFF = 2 ** -53;

let cachedBounds: TabulationBounds | undefined;
function bounds(): TabulationBounds {
  cachedBounds ??= tabulationBounds();
  return cachedBounds;
}

export interface TabulatedKde {
  /** the log density at each query; NaN where the query is NaN; to be filled where listed in `exact` */
  log: Float64Array;
  /** queries whose bound the tabulation does not meet, to be computed pair by pair */
  exact: number[];
}

interface Lattice {
  origin: number;
  /** cell width in position units */
  width: number;
  cells: number;
}

function finiteRange(values: ArrayLike<number>): [number, number] {
  let [lo, hi] = [Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  return [lo, hi];
}

function latticeOf(samples: ArrayLike<number>, queries: ArrayLike<number>, std: number): Lattice | null {
  const [sLo, sHi] = finiteRange(samples);
  const [qLo, qHi] = finiteRange(queries);
  const lo = Math.min(sLo, qLo);
  const hi = Math.max(sHi, qHi);
  const width = CELL_WIDTH * std;
  if (!(width > 0) || !Number.isFinite(lo) || !Number.isFinite(hi)) return null;
  const cells = Math.floor((hi - lo) / width) + 1;
  return cells <= MAX_CELLS ? { origin: lo, width, cells } : null;
}

/** The cell of x and x's coordinate in it, in [−1, 1]. */
function cellOf(lattice: Lattice, x: number): [number, number] {
  const position = (x - lattice.origin) / lattice.width;
  const cell = Math.min(lattice.cells - 1, Math.max(0, Math.floor(position)));
  return [cell, Math.min(1, Math.max(-1, 2 * (position - cell) - 1))];
}

/** Kernel values node to node for each cell offset δ ∈ [−BAND_CELLS, BAND_CELLS]: table[δ][j·n + l] = K(ξ_j − η_l). */
function nodeKernels(nodes: Float64Array): Float64Array[] {
  const n = nodes.length;
  const tables: Float64Array[] = [];
  for (let delta = -BAND_CELLS; delta <= BAND_CELLS; delta++) {
    const table = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let l = 0; l < n; l++) {
        const u = CELL_WIDTH * (delta + (nodes[j]! - nodes[l]!) / 2);
        table[j * n + l] = Math.exp(-0.5 * u * u);
      }
    }
    tables.push(table);
  }
  return tables;
}

/**
 * The work of a tabulation, in kernel-sized steps, to compare with evaluating every pair: spreading
 * the samples, interpolating the queries and the node-to-node sums of each pair of cells in reach.
 */
function tabulationCost(samples: number, queries: number, queryCells: Set<number>, sourceCells: Map<number, unknown>): number {
  let cellPairs = 0;
  for (const cell of queryCells) {
    for (let delta = -BAND_CELLS; delta <= BAND_CELLS; delta++) if (sourceCells.has(cell - delta)) cellPairs++;
  }
  return (samples + queries) * CELL_NODES + cellPairs * CELL_NODES * CELL_NODES;
}

interface CellSpread {
  /** Σ over the cell's samples of each node's basis value, and of its absolute value (for the rounding bound) */
  w: Float64Array;
  abs: Float64Array;
  count: number;
}

/** The samples spread onto their cells' nodes, W[s, l] = Σ L_l(t_i), and the largest count in a cell. */
function spreadSamples(samples: ArrayLike<number>, lattice: Lattice): { spread: Map<number, CellSpread>; largestCount: number } {
  const k = CELL_NODES;
  const [nodes, weights, basis] = [chebyshevNodes(), barycentricWeights(), new Float64Array(k)];
  const spread = new Map<number, CellSpread>();
  let largestCount = 0;
  for (let i = 0; i < samples.length; i++) {
    const [cell, t] = cellOf(lattice, samples[i]!);
    let entry = spread.get(cell);
    if (!entry) {
      entry = { w: new Float64Array(k), abs: new Float64Array(k), count: 0 };
      spread.set(cell, entry);
    }
    lagrangeBasis(t, nodes, weights, basis);
    for (let l = 0; l < k; l++) {
      entry.w[l]! += basis[l]!;
      entry.abs[l]! += Math.abs(basis[l]!);
    }
    largestCount = Math.max(largestCount, ++entry.count);
  }
  return { spread, largestCount };
}

/** Each queried cell's node sums: F[j] = Σ_s Σ_l K(ξ_j − η_l)·W[s, l], and the same over |W|. */
function nodeSums(queryCells: Set<number>, spread: Map<number, CellSpread>): Map<number, { f: Float64Array; abs: Float64Array }> {
  const k = CELL_NODES;
  const tables = nodeKernels(chebyshevNodes());
  const sums = new Map<number, { f: Float64Array; abs: Float64Array }>();
  for (const cell of queryCells) {
    const [f, abs] = [new Float64Array(k), new Float64Array(k)];
    for (let delta = -BAND_CELLS; delta <= BAND_CELLS; delta++) {
      const source = spread.get(cell - delta);
      if (!source) continue;
      const table = tables[delta + BAND_CELLS]!;
      for (let j = 0; j < k; j++) {
        let [s, a] = [0, 0];
        for (let l = 0; l < k; l++) {
          const kernel = table[j * k + l]!;
          s += kernel * source.w[l]!;
          a += kernel * source.abs[l]!;
        }
        f[j]! += s;
        abs[j]! += a;
      }
    }
    sums.set(cell, { f, abs });
  }
  return sums;
}

/**
 * @param samples the n sample positions (one dimension); every one finite
 * @param queries the points to evaluate at
 * @returns null when tabulating does not pay or does not apply (no samples, a non-finite sample,
 *   a range of more than MAX_CELLS cells): evaluate every query pair by pair then
 */
export function tabulatedLogKde(samples: ArrayLike<number>, queries: ArrayLike<number>, std: number): TabulatedKde | null {
  const n = samples.length;
  const m = queries.length;
  if (n === 0 || m === 0) return null;
  for (let i = 0; i < n; i++) if (!Number.isFinite(samples[i]!)) return null;
  const lattice = latticeOf(samples, queries, std);
  if (!lattice) return null;
  const { spread, largestCount } = spreadSamples(samples, lattice);
  const queryCells = new Set<number>();
  for (let q = 0; q < m; q++) if (Number.isFinite(queries[q]!)) queryCells.add(cellOf(lattice, queries[q]!)[0]);
  if (tabulationCost(n, m, queryCells, spread) > n * m) return null;
  const sums = nodeSums(queryCells, spread);

  const k = CELL_NODES;
  const [nodes, weights, basis] = [chebyshevNodes(), barycentricWeights(), new Float64Array(k)];
  const { near, far } = bounds();
  // the float64 sums: each node sum adds at most (largest cell count + band + nodes) terms, then the query's k
  const rounding = 2 * (largestCount + (2 * BAND_CELLS + 1) * k + 2 * k) * UNIT_ROUNDOFF;
  const farError = n * (far + Number.MIN_VALUE);
  const logScale = logNormaliser([std]) - Math.log(n);
  const log = new Float64Array(m);
  const exact: number[] = [];
  for (let q = 0; q < m; q++) {
    const x = queries[q]!;
    if (!Number.isFinite(x)) {
      if (Number.isNaN(x)) log[q] = NaN;
      else exact.push(q);
      continue;
    }
    const [cell, t] = cellOf(lattice, x);
    const { f, abs } = sums.get(cell)!;
    lagrangeBasis(t, nodes, weights, basis);
    let [value, magnitude] = [0, 0];
    for (let j = 0; j < k; j++) {
      value += basis[j]! * f[j]!;
      magnitude += Math.abs(basis[j]!) * abs[j]!;
    }
    const error = (near * value + farError + rounding * magnitude) / (1 - near);
    if (value > 0 && error <= MAX_RELATIVE_ERROR * value) log[q] = Math.log(value) + logScale;
    else exact.push(q);
  }
  return { log, exact };
}
