/** The packed-panel product (kdeProduct.wat): a factor packed in panels of eight columns, and one scaled step of the fold with it. */
import type * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { offsetOf, wasmKernel, withScratch } from './kernelCall';
import { PACK_PANELS_KERNEL, PANEL_COLUMNS, SCALED_CHUNK_PRODUCT_KERNEL } from '../kernels';

export const packPanelsKernel = wasmKernel<typeof PACK_PANELS_KERNEL, 'x'>(PACK_PANELS_KERNEL, ({ backend, kernels, inputs: { x }, at, output }) => {
  const [k, n] = x.shape as [number, number];
  const panels = Math.ceil(n / PANEL_COLUMNS);
  const flags = output([panels], 'int32');
  const stored = k > 0 && n > 0 ? kernels.panelFlags(at(x), k, n, at(flags)) : 0;
  if (k === 0) backend.wasm.HEAP32.fill(0, at(flags) / 4, at(flags) / 4 + panels);
  const packed = output([stored, k, PANEL_COLUMNS]);
  if (stored > 0) kernels.packPanels(at(x), k, n, at(flags), at(packed));
  return [packed, flags];
});

/** How many panels `flags` (int32, PACK_PANELS_KERNEL) says were stored. */
function storedPanels(backend: BackendWasm, flags: tf.TensorInfo): number {
  const at = offsetOf(backend, flags) / 4;
  return backend.wasm.HEAP32.subarray(at, at + flags.shape[0]!).reduce((n, f) => n + f, 0);
}

type ProductInput = 'w' | 'chunkScale' | 'packed' | 'flags' | 'prevSum' | 'prevScale';

export const scaledChunkProductKernel = wasmKernel<typeof SCALED_CHUNK_PRODUCT_KERNEL, ProductInput>(
  SCALED_CHUNK_PRODUCT_KERNEL, ({ backend, kernels, inputs, attrs: { columns }, at, output }) => {
    const { w, chunkScale, packed, flags, prevSum, prevScale } = inputs as Partial<Record<ProductInput, tf.TensorInfo>>;
    const [m, k] = w!.shape as [number, number];
    const [panels, packedRows] = packed!.shape as [number, number, number];
    if (flags!.shape[0] !== Math.ceil(columns / PANEL_COLUMNS) || panels !== storedPanels(backend, flags!) || (panels > 0 && packedRows !== k) || k < 1) {
      throw new Error(
        `${SCALED_CHUNK_PRODUCT_KERNEL}: weights (${m} × ${k}) do not match a factor packed as ${packed!.shape.join(' × ')} ` +
          `with ${flags!.shape[0]} panel flags for ${columns} columns`,
      );
    }
    if ((prevSum === undefined) !== (prevScale === undefined)) throw new Error(`${SCALED_CHUNK_PRODUCT_KERNEL} takes the previous sum and scale together`);
    const heap = () => backend.wasm.HEAPF32;
    const chunk = heap()[at(chunkScale!) / 4]!;
    const prev = prevScale === undefined ? undefined : heap()[at(prevScale) / 4]!;
    // the first chunk is taken as it is, like foldScaledChunk's first step
    const scale = prev === undefined ? chunk : Math.max(prev, chunk);
    const alpha = prev === undefined ? 0 : Math.exp(prev - scale);
    const beta = prev === undefined ? 1 : Math.exp(chunk - scale);
    const sum = output([m, columns]);
    const scaleOut = output([]);
    withScratch(backend, [PANEL_COLUMNS], ([scratch]) =>
      kernels.packedProduct(at(w!), at(packed!), at(flags!), m, k, columns, prevSum === undefined ? 0 : at(prevSum), alpha, beta, at(sum), scratch!),
    );
    // the heap view is fetched again: the outputs' allocation may have grown the memory
    heap()[at(scaleOut) / 4] = scale;
    return [sum, scaleOut];
  },
);
