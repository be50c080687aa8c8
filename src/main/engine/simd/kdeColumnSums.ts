/** Column sums of Gaussian KDE parts without the (samples × points) kernel in memory. */
import { wasmKernel, withScratch } from './kernelCall';
import { maximaAndGridPlan, runGridRows } from './columnMaxima';
import { KDE_COLUMN_SUMS_KERNEL, MIN_KERNEL_COLUMNS } from '../kernels';

export const kdeColumnSumsKernel = wasmKernel<typeof KDE_COLUMN_SUMS_KERNEL, 'a' | 'bt'>(
  KDE_COLUMN_SUMS_KERNEL, ({ backend, kernels, inputs: { a, bt }, attrs: { c, partRows, shiftByPeak }, at, output }) => {
    const [n, q] = a.shape as [number, number];
    const [qb, m] = bt.shape as [number, number];
    const rows = partRows ?? [n];
    if (qb !== q || m < MIN_KERNEL_COLUMNS || rows.reduce((t, r) => t + r, 0) !== n || rows.some((r) => !Number.isInteger(r) || r < 0)) {
      throw new Error(
        `${KDE_COLUMN_SUMS_KERNEL}: samples ${n} × ${q} in parts of ${rows.join(', ')} rows, points ${qb} × ${m}: ` +
          `expected matching dimensions, parts that add up to the samples, and at least ${MIN_KERNEL_COLUMNS} points`,
      );
    }
    const colMax = output([rows.length, m]);
    const colSum = output([rows.length, m]);
    const [pa, pb, pMax, pSum] = [a, bt, colMax, colSum].map(at) as [number, number, number, number];
    withScratch(backend, [m, m, m], ([row, shifted, partial]) => {
      let first = 0;
      rows.forEach((count, k) => {
        const partAt = pa + first * q * 4;
        const [partMax, partSum] = [pMax + k * m * 4, pSum + k * m * 4];
        if (shiftByPeak) {
          backend.wasm.HEAPF32.fill(c, partMax / 4, partMax / 4 + m);
          kernels.kdeColumnSums(partAt, count, q, pb, m, c, partMax, partSum, row!, shifted!, partial!, 1);
          first += count;
          return;
        }
        const { given, grid } = maximaAndGridPlan(backend, partAt, count, q, pb, m, c, partMax);
        if (grid) runGridRows(backend, kernels, grid, count, m, partMax, partSum, 0, 0);
        else kernels.kdeColumnSums(partAt, count, q, pb, m, c, partMax, partSum, row!, shifted!, partial!, given ? 1 : 0);
        first += count;
      });
    });
    return [colMax, colSum];
  },
);
