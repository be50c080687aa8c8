/**
 * Gaussian kernel matrices: the fused log or linear kernel, the column-rescaled exp of a log
 * kernel, and the linear position kernel with its column maxima and sums in one call.
 */
import { wasmKernel, withScratch } from './kernelCall';
import { maximaAndGridPlan, runGridRows } from './columnMaxima';
import { COLUMN_SCALED_EXP_KERNEL, GAUSS_KERNEL, LINEAR_POSITION_KERNEL, MIN_KERNEL_COLUMNS, type FlushAttrs } from '../kernels';

const LANES = MIN_KERNEL_COLUMNS;

export const gaussKernel = wasmKernel<typeof GAUSS_KERNEL, 'a' | 'bt'>(GAUSS_KERNEL, ({ backend, kernels, inputs: { a, bt }, attrs: { c, linear }, at, output }) => {
  const [n, d] = a.shape as [number, number];
  const m = bt.shape[1]!;
  const out = output([n, m]);
  if (n === 0 || m === 0) return out;
  const [pa, pb, po] = [at(a), at(bt), at(out)];
  if (m >= LANES) {
    kernels.gauss(pa, pb, n, m, d, c, po, linear ? 1 : 0);
    return out;
  }
  // too narrow for one vector: the same float32 steps in plain JS
  const heap = backend.wasm.HEAPF32;
  const [ia, ib, io] = [pa / 4, pb / 4, po / 4];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let acc = 0;
      for (let k = 0; k < d; k++) acc = Math.fround(acc + Math.fround(Math.fround(heap[ia + i * d + k]! - heap[ib + k * m + j]!) ** 2));
      const v = Math.fround(Math.fround(acc * -0.5) + c);
      heap[io + i * m + j] = linear ? Math.exp(v) : v;
    }
  }
  return out;
});

export const columnScaledExpKernel = wasmKernel<typeof COLUMN_SCALED_EXP_KERNEL, 'x'>(
  COLUMN_SCALED_EXP_KERNEL, ({ backend, kernels, inputs: { x }, attrs, at, output }) => {
    const [n, m] = x.shape as [number, number];
    if (m < MIN_KERNEL_COLUMNS) throw new Error(`${COLUMN_SCALED_EXP_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} columns, got ${m}`);
    const outs = [output([n, m]), output([m]), output([m])];
    const [dst, colMax, colSum] = outs.map(at) as [number, number, number];
    const flush = (attrs as Partial<FlushAttrs> | undefined)?.flush ?? 0;
    withScratch(backend, [m, m], ([expMax, partial]) => kernels.columnScaledExp(at(x), n, m, colMax, colSum, expMax!, dst, partial!, flush));
    return outs;
  },
);

/**
 * The linear position kernel of the linearPositionKernel op: a (n × q) samples and bt (q × m)
 * bins, over the widths, → [kernel (n × m), colMax (m), colSum (m)] as COLUMN_SCALED_EXP_KERNEL
 * gives them on GAUSS_KERNEL's log kernel (the same operations, here in one call), or, for
 * one-dimensional samples on a uniform grid, the grid kernel's (no exp per entry). Its column sums
 * are then kdeColumnSums' for the same samples, bit for bit, and its kernel rows
 * seriesGroundFactor's: a fit that keeps the kernel and one that does not get the same numbers.
 */
export const linearPositionKernel = wasmKernel<typeof LINEAR_POSITION_KERNEL, 'a' | 'bt'>(
  LINEAR_POSITION_KERNEL, ({ backend, kernels, inputs: { a, bt }, attrs: { c, flush }, at, output }) => {
    const [n, q] = a.shape as [number, number];
    const [qb, m] = bt.shape as [number, number];
    if (qb !== q || m < MIN_KERNEL_COLUMNS) {
      throw new Error(`${LINEAR_POSITION_KERNEL}: samples ${n} × ${q}, bins ${qb} × ${m}: expected matching dimensions and at least ${MIN_KERNEL_COLUMNS} bins`);
    }
    const outs = [output([n, m]), output([m]), output([m])];
    const [dst, colMax, colSum] = outs.map(at) as [number, number, number];
    const [pa, pb] = [at(a), at(bt)];
    const { grid } = maximaAndGridPlan(backend, pa, n, q, pb, m, c, colMax);
    if (grid) {
      runGridRows(backend, kernels, grid, n, m, colMax, colSum, flush, dst);
      return outs;
    }
    withScratch(backend, [Math.max(n * m, LANES), m, m], ([logK, expMax, partial]) => {
      kernels.gauss(pa, pb, n, m, q, c, logK!, 0);
      kernels.columnScaledExp(logK!, n, m, colMax, colSum, expMax!, dst, partial!, flush);
    });
    return outs;
  },
);
