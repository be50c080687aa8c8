/**
 * What the column-sum kernels (the linear position kernel, KDE column sums, the series fit) share
 * before they run: the column maxima from each point's nearest sample on one-dimensional samples,
 * and the plan of the grid kernels (uniformGrid.ts) where the points are evenly spaced.
 */
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { withFloat64Scratch } from './kernelCall';
import { gridFloor, gridRowStates, shiftedColumnSums, uniformGridOf } from './uniformGrid';
import type { KernelExports } from './wasmModule';

/** The grid kernels' starting states per row and the ratios' factor (uniformGrid.ts). */
export interface GridPlan {
  states: Float64Array;
  q: number;
}

/**
 * colMax[j] of the log Gaussian kernel of n one-dimensional samples a (heap floats at aAt, over the
 * width) at the m points bt (at btAt), from each point's nearest sample: $gauss's float32 value,
 * c + (−½)·fl(fl(a − b)²), never grows with |a − b| (every rounding is monotone and symmetric), so
 * the nearest sample's value is the maximum a pass over every row finds, bit for bit, at the cost
 * of finding each sample's place among the points. The float32 steps are replayed in float64 with
 * Math.fround, exact for one operation on float32 operands. False, writing nothing the kernel
 * keeps, when a sample or point is not finite: the kernel then takes its own pass.
 */
function nearestSampleMaxima(heap: Float32Array, aAt: number, n: number, btAt: number, m: number, c: number, colMaxAt: number): boolean {
  if (n === 0) return false;
  // the points in order, and per gap between them (gap g: the samples above g points) its lowest and
  // highest sample: a point's nearest samples are the highest at or below it and the lowest above it,
  // a prefix maximum and a suffix minimum over the gaps (one pass over the samples, no sort)
  const points = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    points[j] = heap[btAt + j]!;
    if (!Number.isFinite(points[j]!)) return false;
  }
  const order = Array.from({ length: m }, (_, j) => j).sort((x, y) => points[x]! - points[y]!);
  const sortedPoints = Float64Array.from(order, (j) => points[j]!);
  const gapLow = new Float64Array(m + 1).fill(Infinity);
  const gapHigh = new Float64Array(m + 1).fill(-Infinity);
  if (!placeSamplesInGaps(heap, aAt, n, sortedPoints, gapLow, gapHigh)) return false;
  const atOrBelow = new Float64Array(m);
  let high = -Infinity;
  for (let r = 0; r < m; r++) atOrBelow[r] = high = Math.max(high, gapHigh[r]!);
  let low = Infinity;
  const c32 = Math.fround(c);
  for (let r = m - 1; r >= 0; r--) {
    low = Math.min(low, gapLow[r + 1]!);
    const b = sortedPoints[r]!;
    const d = Math.fround(Math.min(low - b, b - atOrBelow[r]!));
    heap[colMaxAt + order[r]!] = Math.fround(Math.fround(Math.fround(d * d) * -0.5) + c32);
  }
  return true;
}

/**
 * Each sample's gap among the sorted points, its lowest and highest sample recorded per gap; false
 * on a sample that is not finite. The gap is guessed from the points' mean spacing, then stepped to
 * the exact one: on a grid the guess is right or one off, so no binary search (whose every step
 * was a mispredicted branch).
 */
function placeSamplesInGaps(heap: Float32Array, aAt: number, n: number, sortedPoints: Float64Array, gapLow: Float64Array, gapHigh: Float64Array): boolean {
  const m = sortedPoints.length;
  const first = sortedPoints[0]!;
  const perSpacing = m > 1 && sortedPoints[m - 1]! > first ? (m - 1) / (sortedPoints[m - 1]! - first) : 0;
  for (let i = 0; i < n; i++) {
    const x = heap[aAt + i]!;
    if (!Number.isFinite(x)) return false;
    let g = Math.min(m, Math.max(0, Math.ceil((x - first) * perSpacing)));
    while (g > 0 && sortedPoints[g - 1]! >= x) g--;
    while (g < m && sortedPoints[g]! < x) g++;
    if (x < gapLow[g]!) gapLow[g] = x;
    if (x > gapHigh[g]!) gapHigh[g] = x;
  }
  return true;
}

/**
 * For n samples (q coordinates, heap floats at byte offset pa) against m points (at pb): for
 * one-dimensional samples the column maxima written at colMax from each point's nearest sample
 * (`given`; false when a value is not finite, and the kernel takes its own pass), then the grid
 * kernels' plan where they apply (else null: the exp path).
 */
export function maximaAndGridPlan(
  backend: BackendWasm, pa: number, n: number, q: number, pb: number, m: number, c: number, colMax: number,
): { given: boolean; grid: GridPlan | null } {
  const given = q === 1 && nearestSampleMaxima(backend.wasm.HEAPF32, pa / 4, n, pb / 4, m, c, colMax / 4);
  return { given, grid: given ? gridPlan(backend, pa, n, pb, m, c) : null };
}

/**
 * The grid kernels' inputs for n one-dimensional samples (heap floats at byte offset pa) against m
 * points (at pb): each row's starting state and the ratios' factor; null when the points are not a
 * uniform grid or a row would leave the float64 range (uniformGrid.ts), and the caller takes the
 * exp path.
 */
function gridPlan(backend: BackendWasm, pa: number, n: number, pb: number, m: number, c: number): GridPlan | null {
  if (m % 4 !== 0) return null;
  const heap = backend.wasm.HEAPF32;
  const grid = uniformGridOf(heap.subarray(pb / 4, pb / 4 + m));
  return grid && gridRowStates(heap.subarray(pa / 4, pa / 4 + n), grid, m, c);
}

/**
 * A grid kernel's call on gridPlan's plan: the rows' states and (with `flush` not null) the columns'
 * flush thresholds flush·e^{colMax} in float64 scratch, then `run` (byte offsets of the states, the
 * thresholds and m float64 column sums), then the sums scaled by the column maxima at colMax into
 * colSum.
 */
export function withGridRows(
  backend: BackendWasm, plan: { states: Float64Array }, m: number, colMax: number, colSum: number, flush: number | null,
  run: (state: number, floor: number, sums: number) => void,
): void {
  const floor = flush === null ? null : gridFloor(backend.wasm.HEAPF32.subarray(colMax / 4, colMax / 4 + m), flush);
  withFloat64Scratch(backend, [plan.states.length, floor ? m : 1, m], ([state, floorAt, sums]) => {
    const heap64 = new Float64Array(backend.wasm.HEAPF32.buffer);
    heap64.set(plan.states, state! / 8);
    if (floor) heap64.set(floor, floorAt! / 8);
    run(state!, floorAt!, sums!);
    // the heap is viewed again: run's scratch may have grown the memory
    const heap = backend.wasm.HEAPF32;
    shiftedColumnSums(new Float64Array(heap.buffer, sums!, m), heap.subarray(colMax / 4, colMax / 4 + m), heap.subarray(colSum / 4, colSum / 4 + m));
  });
}

/** The grid kernel's rows (into rows, when not 0, flushed below flush·e^{colMax}) and column sums. */
export function runGridRows(
  backend: BackendWasm, kernels: KernelExports, plan: GridPlan, n: number, m: number,
  colMax: number, colSum: number, flush: number, rows: number,
): void {
  withGridRows(backend, plan, m, colMax, colSum, rows ? flush : null, (state, floor, sums) =>
    kernels.gridRowsAndSums(state, n, m, plan.q, floor, sums, rows));
}
