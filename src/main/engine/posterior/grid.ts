/**
 * The place grid the posterior runs on (posterior-spec §2, §2b): every bin's centre and its interior
 * flag, the shape the dataset keeps (`Dataset.placeGrid`); a 2-D grid adds its bins per axis. The
 * grid is built once, by the data loaders (data/grid/, numpy's and scipy's steps); the posterior only
 * reads it.
 */
import type { PlaceGridBins } from '../../../shared/dataset';

export type PlaceGrid = PlaceGridBins;

/** Position dimensions of the grid's centres. */
export function gridDims(grid: PlaceGrid): number {
  return grid.shape?.length ?? 1;
}

/** Bins of the grid, interior or not. */
export function gridBinCount(grid: PlaceGrid): number {
  return grid.interior.length;
}

/**
 * The grid's centre coordinates along each axis, read off its C-order centres (the last axis
 * fastest): axis a's i-th coordinate is that of bin i·stride_a. A grid without a shape is one axis.
 * Whether every bin sits on these axes (a regular grid) is the caller's question.
 */
export function gridAxes(grid: PlaceGrid): Float64Array[] {
  const dims = gridDims(grid);
  const shape = grid.shape ?? [grid.interior.length];
  const strides = shape.map((_, a) => shape.slice(a + 1).reduce((x, y) => x * y, 1));
  return shape.map((n, a) => Float64Array.from({ length: n }, (_, i) => grid.centers[i * strides[a]! * dims + a]!));
}

/** A grid whose centres, mask and shape disagree cannot be decoded on: say which part is wrong. */
export function checkGrid(grid: PlaceGrid): void {
  const dims = gridDims(grid);
  const bins = grid.interior.length;
  if (grid.centers.length !== bins * dims) {
    throw new RangeError(`the place grid has ${bins} interior flags but ${grid.centers.length / dims} ${dims}-D centres`);
  }
  if (grid.shape && grid.shape.reduce((a, b) => a * b, 1) !== bins) {
    throw new RangeError(`the place grid's shape ${grid.shape.join(' × ')} does not hold its ${bins} bins`);
  }
}
