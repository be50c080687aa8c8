/**
 * non_local_detector's multi-bin Local state (its `local_position_std`, at 5b9e258): the Local
 * state spans every place bin, and each row's log likelihood there is the non-local likelihood plus
 * a log kernel around the animal's bin. The kernel is log(P) at the animal's bin and −∞ elsewhere for
 * a std of 0; for a positive std it is −d²/(2σ²) over the shortest-path distance d from the
 * animal's bin through the grid's interior bins (each bin joined to its 3^d − 1 neighbours by the
 * Euclidean distance of their centres: NLD's graph of the grid when there is no track graph),
 * normalised so that its exponentials sum to P per row. The + log P balances the 1/P uniform
 * initial and transition mass of the Local state, so the state's effective prior is the kernel.
 * A row whose position is unknown (NaN) gets 0 in every bin: no preference.
 */
import { gridAxes, gridDims, type PlaceGrid } from './grid';

/** The animal's bin as NLD's Environment.get_bin_ind finds it; -1 when the position is NaN. */
export class GridBinIndex {
  private readonly dims: number;
  /** per axis: the centre coordinate of each bin along it, ascending */
  private readonly axes: Float64Array[];
  private readonly strides: number[];

  constructor(private readonly grid: PlaceGrid) {
    this.dims = gridDims(grid);
    const shape = grid.shape ?? [grid.interior.length];
    this.strides = shape.map((_, a) => shape.slice(a + 1).reduce((x, y) => x * y, 1));
    this.axes = gridAxes(grid);
  }

  /**
   * The bin whose cell holds the position: cells are split half-way between neighbouring centres (a
   * regular grid's edges), a value on a split goes to the upper cell except past the last split, and
   * positions beyond the first or last centre fall in the end bins. A bin that is not interior is
   * replaced by the interior bin whose centre is nearest (the first of equals), as get_bin_ind snaps.
   */
  of(position: ArrayLike<number>, offset = 0): number {
    let bin = 0;
    for (let a = 0; a < this.dims; a++) {
      const x = position[offset + a]!;
      if (Number.isNaN(x)) return -1;
      bin += this.cellAlong(a, x) * this.strides[a]!;
    }
    return this.grid.interior[bin] ? bin : this.nearestInterior(position, offset);
  }

  private cellAlong(a: number, x: number): number {
    const c = this.axes[a]!;
    const n = c.length;
    // searchsorted(inner edges, x, side='right'), with the last inner edge itself moved one cell down
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x >= 0.5 * (c[mid]! + c[mid + 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (n > 1 && lo === n - 1 && x === 0.5 * (c[n - 2]! + c[n - 1]!)) return n - 2;
    return lo;
  }

  private nearestInterior(position: ArrayLike<number>, offset: number): number {
    let best = -1;
    let bestD = Infinity;
    const { centers, interior } = this.grid;
    for (let b = 0; b < interior.length; b++) {
      if (!interior[b]) continue;
      let d2 = 0;
      for (let a = 0; a < this.dims; a++) d2 += (position[offset + a]! - centers[b * this.dims + a]!) ** 2;
      if (d2 < bestD) {
        bestD = d2;
        best = b;
      }
    }
    return best;
  }
}

/** Shortest-path distances from one interior bin to every interior bin, through interior neighbours. */
export function gridGraphDistances(grid: PlaceGrid, interiorBins: Int32Array, fromBin: number): Float64Array {
  const dims = gridDims(grid);
  const shape = grid.shape ?? [grid.interior.length];
  const { centers, interior } = grid;
  const dist = new Float64Array(interior.length).fill(Infinity);
  const done = new Uint8Array(interior.length);
  const heap = new MinHeap();
  dist[fromBin] = 0;
  heap.push(0, fromBin);
  const offsets = neighbourOffsets(dims);
  const index = new Int32Array(dims);
  while (heap.size > 0) {
    const [d, b] = heap.pop();
    if (done[b]) continue;
    done[b] = 1;
    let rest = b;
    for (let a = dims - 1; a >= 0; a--) {
      index[a] = rest % shape[a]!;
      rest = Math.floor(rest / shape[a]!);
    }
    for (const offset of offsets) {
      let nb = 0;
      let inside = true;
      for (let a = 0; a < dims && inside; a++) {
        const i = index[a]! + offset[a]!;
        inside = i >= 0 && i < shape[a]!;
        nb = nb * shape[a]! + i;
      }
      if (!inside || !interior[nb] || done[nb]) continue;
      let d2 = 0;
      for (let a = 0; a < dims; a++) d2 += (centers[b * dims + a]! - centers[nb * dims + a]!) ** 2;
      const next = d + Math.sqrt(d2);
      if (next < dist[nb]!) {
        dist[nb] = next;
        heap.push(next, nb);
      }
    }
  }
  return Float64Array.from(interiorBins, (b) => dist[b]!);
}

function neighbourOffsets(dims: number): number[][] {
  let out: number[][] = [[]];
  for (let a = 0; a < dims; a++) out = out.flatMap((o) => [-1, 0, 1].map((s) => [...o, s]));
  return out.filter((o) => o.some((s) => s !== 0));
}

/** A binary heap of (distance, bin) pairs, smallest distance first. */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, value: number): void {
    const { keys, values } = this;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  pop(): [number, number] {
    const { keys, values } = this;
    const top: [number, number] = [keys[0]!, values[0]!];
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && keys[l + 1]! < keys[l]! ? l + 1 : l;
      if (keys[c]! >= lastKey) break;
      keys[i] = keys[c]!;
      values[i] = values[c]!;
      i = c;
    }
    keys[i] = lastKey;
    values[i] = lastValue;
    return top;
  }
}

/** Kernel rows kept at most, by bytes: the animal revisits its recent bins, so a bounded cache hits nearly always. */
const KERNEL_CACHE_BYTES = 64 * 2 ** 20;

/** The most the cache of kernel rows holds for P interior bins. */
export function localKernelCacheBytes(p: number): number {
  return Math.min(p, kernelCacheRows(p)) * p * 4;
}

function kernelCacheRows(p: number): number {
  return Math.max(16, Math.floor(KERNEL_CACHE_BYTES / (4 * Math.max(1, p))));
}

/** The Local state's log kernel over interior bins, row by row; the row of a bin is computed once while it stays cached. */
export class LocalPositionKernel {
  private readonly bins: GridBinIndex;
  private readonly interiorOf: Int32Array;
  private readonly logP: number;
  private readonly cache = new Map<number, Float32Array>();

  constructor(
    private readonly grid: PlaceGrid,
    private readonly interiorBins: Int32Array,
    /** the kernel's standard deviation in position units; 0 for the delta kernel */
    readonly std: number,
  ) {
    if (!(std >= 0) || !Number.isFinite(std)) throw new RangeError(`the local position std must be a number ≥ 0, got ${std}`);
    this.bins = new GridBinIndex(grid);
    this.interiorOf = new Int32Array(grid.interior.length).fill(-1);
    interiorBins.forEach((b, k) => (this.interiorOf[b] = k));
    // upstream takes log P in float32
    this.logP = Math.fround(Math.log(Math.fround(interiorBins.length)));
  }

  /** rows × P log kernel (float32) at the animal's positions (rows × dims, row-major, NaN where unknown). */
  rows(positions: Float64Array, rows: number, out: Float32Array = new Float32Array(rows * this.interiorBins.length)): Float32Array {
    const p = this.interiorBins.length;
    const dims = gridDims(this.grid);
    for (let t = 0; t < rows; t++) {
      const bin = this.bins.of(positions, t * dims);
      const row = out.subarray(t * p, (t + 1) * p);
      if (bin < 0) row.fill(0);
      else row.set(this.rowOf(bin));
    }
    return out;
  }

  private rowOf(bin: number): Float32Array {
    let row = this.cache.get(bin);
    if (!row) {
      row = this.std === 0 ? this.deltaRow(bin) : this.gaussianRow(bin);
      if (this.cache.size >= kernelCacheRows(this.interiorBins.length)) this.cache.clear();
      this.cache.set(bin, row);
    }
    return row;
  }

  private deltaRow(bin: number): Float32Array {
    const row = new Float32Array(this.interiorBins.length).fill(-Infinity);
    row[this.interiorOf[bin]!] = this.logP;
    return row;
  }

  private gaussianRow(bin: number): Float32Array {
    const d = gridGraphDistances(this.grid, this.interiorBins, bin);
    const log = d.map((x) => (Number.isFinite(x) ? (-0.5 * x * x) / (this.std * this.std) : -Infinity));
    let peak = -Infinity;
    for (const v of log) peak = Math.max(peak, v);
    let sum = 0;
    for (const v of log) sum += Math.exp(v - peak);
    const shift = peak + Math.log(sum) - this.logP;
    return Float32Array.from(log, (v) => v - shift);
  }
}
