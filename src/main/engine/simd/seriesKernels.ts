/** The series strategy's kernels: its spike terms, its factor, and the fit's ground process with the factor in one pass. */
import { wasmKernel, withScratch } from './kernelCall';
import { maximaAndGridPlan, withGridRows } from './columnMaxima';
import { MIN_KERNEL_COLUMNS, SERIES_FACTOR_KERNEL, SERIES_GROUND_FACTOR_KERNEL, SERIES_TERMS_KERNEL } from '../kernels';

/** kernel rows the series fit forms per tile before adding their product into the factor */
const SERIES_GROUND_TILE_ROWS = 16;

export const seriesTermsKernel = wasmKernel<typeof SERIES_TERMS_KERNEL, 'phi' | 'w' | 'rowOff' | 'bias'>(
  SERIES_TERMS_KERNEL, ({ kernels, inputs: { phi, w, rowOff, bias }, attrs: { floor }, at, output }) => {
    const [n, f] = phi.shape as [number, number];
    const m = w.shape[1]!;
    if (m < MIN_KERNEL_COLUMNS) throw new Error(`${SERIES_TERMS_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} bins, got ${m}`);
    // Φ may be narrower than W is tall: the product takes W's first f rows
    if (w.shape[0]! < f) throw new Error(`${SERIES_TERMS_KERNEL}: Φ has ${f} features, W only ${w.shape[0]} rows`);
    const out = output([n, m]);
    if (n > 0) kernels.seriesTerms(at(phi), at(w), n, m, f, at(rowOff), at(bias), floor, at(out));
    return out;
  },
);

export const seriesFactorKernel = wasmKernel<typeof SERIES_FACTOR_KERNEL, 'psi' | 'kpos'>(
  SERIES_FACTOR_KERNEL, ({ kernels, inputs: { psi, kpos }, at, output }) => {
    const [e, f] = psi.shape as [number, number];
    const m = kpos.shape[1]!;
    if (m < MIN_KERNEL_COLUMNS || f % 4 !== 0) {
      throw new Error(`${SERIES_FACTOR_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} bins and a multiple of 4 features, got ${m} and ${f}`);
    }
    const out = output([f, m]);
    kernels.seriesFactor(at(psi), at(kpos), e, m, f, at(out));
    return out;
  },
);

export const seriesGroundFactorKernel = wasmKernel<typeof SERIES_GROUND_FACTOR_KERNEL, 'a' | 'bt' | 'psi'>(
  SERIES_GROUND_FACTOR_KERNEL, ({ backend, kernels, inputs: { a, bt, psi }, attrs: { c, flush }, at, output }) => {
    const [n, q] = a.shape as [number, number];
    const [qb, m] = bt.shape as [number, number];
    const [np, f] = psi.shape as [number, number];
    if (qb !== q || np !== n || n === 0 || m < MIN_KERNEL_COLUMNS || m % 4 !== 0 || f % 4 !== 0) {
      throw new Error(
        `${SERIES_GROUND_FACTOR_KERNEL}: positions ${n} × ${q}, centres ${qb} × ${m}, features ${np} × ${f}: expected matching ` +
          `dimensions, at least one position, and bins and features in multiples of 4`,
      );
    }
    const outs = [output([m]), output([m]), output([f, m])];
    const [colMax, colSum, w] = outs.map(at) as [number, number, number];
    const tile = Math.min(n, SERIES_GROUND_TILE_ROWS);
    const [pa, pb] = [at(a), at(bt)];
    const { given, grid } = maximaAndGridPlan(backend, pa, n, q, pb, m, c, colMax);
    if (grid) {
      withGridRows(backend, grid, m, colMax, colSum, flush, (state, floor, sums) =>
        withScratch(backend, [tile * m], ([rows]) => {
          kernels.gridSeriesGroundFactor(state, n, m, grid.q, floor, sums, at(psi), f, w, rows!, tile);
        }));
      return outs;
    }
    withScratch(backend, [m, m, tile * m], ([expMax, partial, rows]) => {
      kernels.seriesGroundFactor(pa, n, q, pb, m, c, at(psi), f, colMax, colSum, w, expMax!, partial!, rows!, tile, flush, given ? 1 : 0);
    });
    return outs;
  },
);
