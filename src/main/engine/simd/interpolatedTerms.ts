/**
 * The series strategy's interpolated handoff in one pass per block: mark kernel, Lagrange weights
 * and node kernels (strategies/series/interpolated.ts plans its layout).
 */
import { wasmKernel, withScratch } from './kernelCall';
import { INTERPOLATED_TERMS_KERNEL, interpolatedSpikeVectorFloats, MIN_KERNEL_COLUMNS } from '../kernels';

/** interpolatedTerms' scratch: a row's 8 sums, then its weight's 10 constants, four floats each */
const INTERPOLATED_SCRATCH_FLOATS = 72;

type Input = 'a' | 'spikes' | 'chunks' | 'h' | 'bias' | 'direction' | 'bounds';

export const interpolatedTermsKernel = wasmKernel<typeof INTERPOLATED_TERMS_KERNEL, Input>(
  INTERPOLATED_TERMS_KERNEL, ({ backend, kernels, inputs, attrs: { off, floor, reach }, at, output }) => {
    const { a, spikes, chunks, h, bias, direction, bounds } = inputs;
    const [n, d] = a.shape as [number, number];
    const m = bias.shape[0]!;
    const nChunks = chunks.shape[0]!;
    const vectors = spikes.shape[0]! / interpolatedSpikeVectorFloats(d);
    if (
      m < MIN_KERNEL_COLUMNS || m % 4 !== 0 || d < 1 || !Number.isInteger(vectors) || chunks.dtype !== 'int32' || chunks.shape[1] !== 5 ||
      direction.shape[0] !== d || bounds.shape[0] !== 2 * vectors || [a, spikes, h, bias, direction, bounds].some((t) => t.dtype !== 'float32')
    ) {
      throw new Error(
        `${INTERPOLATED_TERMS_KERNEL}: marks ${n} × ${d}, spikes of ${spikes.shape[0]} floats, chunks ${chunks.shape.join(' × ')} (${chunks.dtype}), ` +
          `bias of ${m}, direction of ${direction.shape[0]}, bounds of ${bounds.shape[0]}: expected float32 inputs, int32 chunks of 5, whole spike ` +
          'vectors with two bounds each, a direction per feature and a multiple of 4 bins',
      );
    }
    // the table must stay inside the tensors it points into: the kernel reads without bounds checks
    const table = backend.wasm.HEAP32.subarray(at(chunks) / 4, at(chunks) / 4 + 5 * nChunks);
    for (let c = 0; c < nChunks; c++) {
      const [v0, v1, p0, p1, hAt] = table.subarray(5 * c, 5 * c + 5) as unknown as [number, number, number, number, number];
      if (!(v0 >= 0 && v0 <= v1 && v1 <= vectors && p0 >= 0 && p0 <= p1 && 4 * p1 <= m && hAt >= 0 && hAt + 32 * (p1 - p0) <= h.shape[0]!)) {
        throw new Error(`${INTERPOLATED_TERMS_KERNEL}: chunk ${c} (${[v0, v1, p0, p1, hAt].join(', ')}) reaches outside ${vectors} spike vectors, ${m} bins or h`);
      }
    }
    const out = output([n, m]);
    const taken = output([], 'int32');
    let takenVectors = 0;
    if (n > 0) {
      const [pa, ps, pc, ph, pb, po, pd, pu] = [a, spikes, chunks, h, bias, out, direction, bounds].map(at) as number[];
      takenVectors = withScratch(backend, [INTERPOLATED_SCRATCH_FLOATS], ([scratch]) =>
        kernels.interpolatedTerms(pa!, n, d, ps!, pc!, nChunks, ph!, m, off, pb!, floor, po!, pd!, pu!, reach, scratch!));
    }
    backend.wasm.HEAP32[at(taken) / 4] = takenVectors;
    return [out, taken];
  },
);
