/**
 * Installs the engine's SIMD kernels (kdeKernels.wat) into the wasm backend: its Exp and Log for
 * float32 tensors, and under their own kernel names a fused Gaussian kernel matrix, the position
 * kernel's column-rescaled exp, the compensated strategy's weights, position factor and packed
 * product, and the series strategy's factor and spike terms. The module
 * imports the backend's own memory, so the kernels read and write tensors where they live, with
 * no copies. Installed once per backend (each engine worker thread has its own); the op graph
 * every other backend runs stays the definition, and the parity tests hold both to the spec.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { gridFactorRowStates, gridFloor, gridRowStates, shiftedColumnSums, uniformGridOf } from './uniformGrid';
import {
  KDE_KERNELS_PLAIN_WASM_BASE64, KDE_KERNELS_RELAXED_WASM_BASE64, KDE_PRODUCT_PLAIN_WASM_BASE64, KDE_PRODUCT_RELAXED_WASM_BASE64,
} from './kdeKernelsBinary';

/** the tfjs kernel name of the fused Gaussian kernel matrix */
export const GAUSS_KERNEL = 'KdeGaussKernel';
/**
 * the tfjs kernel name of the column-rescaled exp: x (n × m) → [exp(x), max_i x, Σ_i exp(x − max)],
 * with attrs { flush } (FlushAttrs) exp(x − max) below it set to 0
 */
export const COLUMN_SCALED_EXP_KERNEL = 'KdeColumnScaledExp';
/**
 * the tfjs kernel name of the compensated strategy's weights for one block and encoding chunk:
 * a (B × D), bt (D × E), rowMax (E) → [w (B × E), C* (scalar)]
 */
export const COMPENSATED_WEIGHTS_KERNEL = 'KdeCompensatedWeights';
/**
 * the tfjs kernel name of the series strategy's spike terms: phi (n × F), w (F × P), rowOff (n),
 * bias (P) → max(log(max(phi·w, 0)) + rowOff + bias, floor), (n × P)
 */
export const SERIES_TERMS_KERNEL = 'KdeSeriesTerms';
/** the tfjs kernel name of the series strategy's factor: psi (E × F), kpos (E × P) → psiᵀ·kpos (F × P), F a multiple of 4 */
export const SERIES_FACTOR_KERNEL = 'KdeSeriesFactor';
/**
 * the tfjs kernel name of packing a (k × n) matrix in panels of eight columns for the packed product:
 * → [packed (panels stored × k × 8), flags (⌈n/8⌉ int32, 1 where the panel holds anything but 0)];
 * only the panels flagged 1 are stored
 */
export const PACK_PANELS_KERNEL = 'KdePackPanels';
/**
 * the tfjs kernel name of one step of the compensated strategy's running fold with a packed factor:
 * w (B × C), chunkScale (scalar), packed and flags (PACK_PANELS_KERNEL), and the state so far (prevSum (B × P),
 * prevScale) when there is one → [sum, scale] with scale = max(prevScale, chunkScale) and
 * sum = prevSum·e^(prevScale − scale) + (w·factor)·e^(chunkScale − scale)
 */
export const SCALED_CHUNK_PRODUCT_KERNEL = 'KdeScaledChunkProduct';
/** columns per panel of a packed operand */
export const PANEL_COLUMNS = 8;
/**
 * the tfjs kernel name of the compensated strategy's position factor for a chunk of encoding spikes
 * in a given order, from their positions: a (E × Q) and bt (Q × P) already over the kernel widths,
 * order (E, int32) → [factor (count × P), rowMax (count)]: per row of the log kernel of spikes
 * order[first … first + count − 1] its maximum and exp(row − maximum), 0 below `flush` when it is above 0
 */
export const POSITION_FACTOR_ROWS_KERNEL = 'KdePositionFactorRows';
/**
 * the tfjs kernel name of Gaussian KDE parts' column sums: a (n × q) samples and bt (q × m) points,
 * both over the kernel widths, the samples in consecutive parts (KdeColumnSumsAttrs) → [colMax,
 * colSum] (parts × m), per part the maximum log kernel at each point and the sum of
 * exp(logK − colMax), without the (n × m) kernel
 */
export const KDE_COLUMN_SUMS_KERNEL = 'KdeColumnSums';
/**
 * the tfjs kernel name of a series fit's electrode: a (n × q) positions and bt (q × m) bin centres,
 * both over the kernel widths, psi (n × F) → [colMax (m), colSum (m), w (F × m)]: what
 * COLUMN_SCALED_EXP_KERNEL gives on the log kernel (without the kernel) and SERIES_FACTOR_KERNEL
 * then gives on the linear kernel, bit for bit; m and F multiples of 4
 */
export const SERIES_GROUND_FACTOR_KERNEL = 'KdeSeriesGroundFactor';
/**
 * the tfjs kernel name of the linear position kernel: a (n × q) samples and bt (q × m) bins, both
 * over the kernel widths, attrs LinearPositionKernelAttrs → [kernel (n × m), colMax (m), colSum (m)]
 * as COLUMN_SCALED_EXP_KERNEL gives them on the log kernel
 */
export const LINEAR_POSITION_KERNEL = 'KdeLinearPositionKernel';
/**
 * the tfjs kernel name of the strategies' epilogue: x (n × m), bias (m) → max(x + bias, floor)
 * (BiasFloorAttrs), the op graph add → maximum in one pass
 */
export const BIAS_FLOOR_KERNEL = 'KdeBiasFloor';
/** kernel rows the series fit forms per tile before adding their product into the factor */
const SERIES_GROUND_TILE_ROWS = 16;
/**
 * the tfjs kernel name of exp with results below `flush` (FlushAttrs) dropped, the exp the engine's
 * KDE, position-factor and weights kernels run: x → exp(x), x ≤ 0 and at least 4 elements
 */
export const EXP_FLUSHED_KERNEL = 'KdeExpFlushed';
/**
 * the tfjs kernel name of the series strategy's exact handoff on one-dimensional positions
 * (strategies/positionInterpolation.ts): a (n × D) decoding marks over the widths, spikes, chunks
 * (int32), h, direction (D) and bounds (2 per spike vector) in interpolatedTerms' layouts
 * (kdeKernels.wat), bias (m) → [ℓ (n × m), the spike vectors its rows took (int32 scalar)], m a multiple of 4
 */
export const INTERPOLATED_TERMS_KERNEL = 'KdeInterpolatedTerms';
/** the fewest columns the fused kernels take; narrower inputs stay on the op graph */
export const MIN_KERNEL_COLUMNS = 4;

interface KernelExports {
  exp(src: number, dst: number, n: number): void;
  log(src: number, dst: number, n: number): void;
  gauss(a: number, bt: number, n: number, m: number, d: number, c: number, dst: number, linear: number): void;
  columnScaledExp(x: number, n: number, m: number, colMax: number, colSum: number, expMax: number, dst: number, partial: number, flush: number): void;
  compensatedWeights(a: number, bt: number, n: number, m: number, d: number, c: number, rowMax: number, logE: number, w: number, flush: number): number;
  seriesTerms(phi: number, w: number, n: number, m: number, f: number, rowOff: number, bias: number, floor: number, dst: number): void;
  seriesFactor(psi: number, kpos: number, e: number, m: number, f: number, dst: number): void;
  expFlushed(src: number, dst: number, count: number, flush: number): void;
  seriesGroundFactor(
    a: number, n: number, q: number, bt: number, m: number, c: number, psi: number, f: number, colMax: number, colSum: number, w: number,
    expMax: number, partial: number, rows: number, tile: number, flush: number, maxGiven: number,
  ): void;
  kdeColumnSums(
    a: number, n: number, q: number, bt: number, m: number, c: number, colMax: number, colSum: number, row: number, shifted: number, partial: number,
    maxGiven: number,
  ): void;
  gridSeriesGroundFactor(
    state: number, n: number, m: number, q: number, floor: number, sums: number, psi: number, f: number, w: number, rows: number, tile: number,
  ): void;
  gridRowsAndSums(state: number, n: number, m: number, q: number, floor: number, sums: number, rows: number): void;
  gridFactorRows(state: number, count: number, m: number, q: number, flush: number, dst: number): void;
  biasFloor(src: number, bias: number, n: number, m: number, floor: number, dst: number): void;
  positionFactorRows(
    a: number, order: number, first: number, count: number, q: number, bt: number, m: number, c: number, dst: number, rowMax: number, flush: number,
  ): void;
  panelFlags(b: number, k: number, n: number, flags: number): number;
  interpolatedTerms(
    a: number, n: number, d: number, spikes: number, chunks: number, nChunks: number, h: number, m: number, off: number, bias: number, floor: number,
    dst: number, dir: number, bounds: number, reach: number, scratch: number,
  ): number;
  packPanels(b: number, k: number, n: number, flags: number, dst: number): void;
}

/** kdeProduct.wat, one of its two builds */
interface ProductExports {
  packedProduct: (
    a: number, packed: number, flags: number, m: number, k: number, n: number, prev: number, alpha: number, beta: number, dst: number, scratch: number,
  ) => void;
}

interface Installed extends KernelExports, ProductExports {
  /** the product's build has relaxed SIMD's fused multiply-adds */
  fusedMultiplyAdd: boolean;
}

export interface ScaledChunkProductAttrs {
  /** P, the columns of the factor before it was packed */
  columns: number;
}

export interface KdeColumnSumsAttrs {
  /** the kernel's log-normaliser */
  c: number;
  /** the samples' rows per part, in order (default: one part of all); one row of outputs per part */
  partRows?: number[];
}

export interface PositionFactorRowsAttrs {
  first: number;
  count: number;
  /** the position kernel's log-normaliser */
  c: number;
  /** entries below this are set to 0 (0: none) */
  flush: number;
}

export interface FlushAttrs {
  /** entries below this are set to 0 (0: none) */
  flush: number;
}

export interface SeriesTermsAttrs {
  /** the floor of every term (LOG_EPS) */
  floor: number;
}

export interface CompensatedWeightsAttrs {
  /** the mark kernel's log-normaliser */
  c: number;
  /** log E, E the electrode's encoding spikes */
  logE: number;
  /** weights below this are set to 0 (0: none); see compensated.ts for when that is safe */
  flush: number;
}

/** below this many elements the SIMD loops cannot form one vector; plain JS does those */
const LANES = MIN_KERNEL_COLUMNS;

const installedOn = new WeakMap<object, Installed>();

export interface InterpolatedTermsAttrs {
  /** added to every log sum: the kernels' log-normalisers, −log E and the scale H carries */
  off: number;
  /** the floor of every term (LOG_EPS) */
  floor: number;
  /** how far along `direction` a row looks for spikes (positionInterpolation.ts) */
  reach: number;
}

export interface GaussAttrs {
  /** log-normaliser added to every entry */
  c: number;
  /** true: exp of the log-kernel (the linear kernel) */
  linear: boolean;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Whether this WebAssembly engine takes relaxed SIMD (the fused multiply-add builds of the packed
 * product and of the exp and log polynomials). Chromium 114+ and Node 22+ do; Node 20 only behind
 * a V8 flag, which the engine process sets when this says no (engineProcess/relaxedSimd.ts).
 */
export function relaxedSimdAvailable(): boolean {
  return WebAssembly.validate(decode(KDE_PRODUCT_RELAXED_WASM_BASE64));
}

function instantiate(backend: BackendWasm): Installed {
  const memory = (backend.wasm as unknown as { asm?: { memory?: WebAssembly.Memory } }).asm?.memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    throw new Error('the wasm backend does not expose its memory; the engine kernels cannot be installed');
  }
  const imports = { env: { memory } };
  const fusedMultiplyAdd = relaxedSimdAvailable();
  const kernelBytes = decode(fusedMultiplyAdd ? KDE_KERNELS_RELAXED_WASM_BASE64 : KDE_KERNELS_PLAIN_WASM_BASE64);
  const kernels = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes), imports).exports as unknown as KernelExports;
  const productBytes = decode(fusedMultiplyAdd ? KDE_PRODUCT_RELAXED_WASM_BASE64 : KDE_PRODUCT_PLAIN_WASM_BASE64);
  const product = new WebAssembly.Instance(new WebAssembly.Module(productBytes), imports).exports as unknown as ProductExports;
  return { ...kernels, packedProduct: product.packedProduct, fusedMultiplyAdd };
}

/** The module installed on this backend, for a kernel that has no fallback of its own. */
function kernelsFor(backend: BackendWasm, kernelName: string): Installed {
  const kernels = installedOn.get(backend);
  if (!kernels) throw new Error(`${kernelName} runs only on a wasm backend the engine kernels were installed on`);
  return kernels;
}

function offsetOf(backend: BackendWasm, t: tf.TensorInfo): number {
  return backend.getMemoryOffset(t.dataId);
}

/**
 * Copies a float32 tensor's values into dst (at least t.size long) straight from the wasm backend's
 * heap, without the fresh array a read allocates; false, copying nothing, on any other backend.
 */
export function copyFloat32Into(t: tf.Tensor, dst: Float32Array): boolean {
  if (tf.getBackend() !== 'wasm' || t.dtype !== 'float32' || dst.length < t.size) return false;
  const backend = tf.backend() as BackendWasm;
  const at = offsetOf(backend, t) / 4;
  dst.set(backend.wasm.HEAPF32.subarray(at, at + t.size));
  return true;
}

/** A float32 unary kernel from a SIMD loop; other dtypes go to the backend's own kernel. */
function unaryKernel(original: tf.KernelConfig, simd: 'exp' | 'log', scalar: (x: number) => number): tf.KernelFunc {
  return (args) => {
    const x = args.inputs.x!;
    const backend = args.backend as BackendWasm;
    const kernels = installedOn.get(backend);
    if (x.dtype !== 'float32' || !kernels) return original.kernelFunc(args);
    const out = backend.makeOutput(x.shape, 'float32');
    const n = tf.util.sizeFromShape(x.shape);
    const src = offsetOf(backend, x);
    const dst = offsetOf(backend, out);
    if (n >= LANES) kernels[simd](src, dst, n);
    else {
      // the heap view is fetched after the allocation, which may have grown the memory
      const heap = backend.wasm.HEAPF32;
      for (let i = 0; i < n; i++) heap[dst / 4 + i] = scalar(heap[src / 4 + i]!);
    }
    return out;
  };
}

const gaussKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, GAUSS_KERNEL);
  const { a, bt } = inputs as { a: tf.TensorInfo; bt: tf.TensorInfo };
  const { c, linear } = attrs as unknown as GaussAttrs;
  const [n, d] = a.shape as [number, number];
  const m = bt.shape[1]!;
  const out = backend.makeOutput([n, m], 'float32');
  if (n === 0 || m === 0) return out;
  const [pa, pb, po] = [offsetOf(backend, a), offsetOf(backend, bt), offsetOf(backend, out)];
  if (m >= LANES) {
    kernels.gauss(pa, pb, n, m, d, c, po, linear ? 1 : 0);
    return out;
  }
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
};

const columnScaledExpKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, COLUMN_SCALED_EXP_KERNEL);
  const x = inputs.x!;
  const [n, m] = x.shape as [number, number];
  if (m < MIN_KERNEL_COLUMNS) throw new Error(`${COLUMN_SCALED_EXP_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} columns, got ${m}`);
  const outs = [backend.makeOutput([n, m], 'float32'), backend.makeOutput([m], 'float32'), backend.makeOutput([m], 'float32')];
  const [dst, colMax, colSum] = outs.map((t) => offsetOf(backend, t)) as [number, number, number];
  const flush = (attrs as Partial<FlushAttrs> | undefined)?.flush ?? 0;
  withScratch(backend, [m, m], ([expMax, partial]) => kernels.columnScaledExp(offsetOf(backend, x), n, m, colMax, colSum, expMax!, dst, partial!, flush));
  return outs;
};

/** Temporary heap floats for a kernel call, freed however the call ends. */
function withScratch<T>(backend: BackendWasm, floats: number[], body: (offsets: number[]) => T): T {
  const infos = floats.map((n) => backend.makeOutput([n], 'float32'));
  try {
    return body(infos.map((t) => offsetOf(backend, t)));
  } finally {
    for (const t of infos) backend.disposeData(t.dataId, true);
  }
}

const compensatedWeightsKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, COMPENSATED_WEIGHTS_KERNEL);
  const { a, bt, rowMax } = inputs as { a: tf.TensorInfo; bt: tf.TensorInfo; rowMax: tf.TensorInfo };
  const { c, logE, flush } = attrs as unknown as CompensatedWeightsAttrs;
  const [n, d] = a.shape as [number, number];
  const m = bt.shape[1]!;
  if (m < MIN_KERNEL_COLUMNS) throw new Error(`${COMPENSATED_WEIGHTS_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} encoding spikes, got ${m}`);
  const w = backend.makeOutput([n, m], 'float32');
  const scale = backend.makeOutput([], 'float32');
  const value = kernels.compensatedWeights(offsetOf(backend, a), offsetOf(backend, bt), n, m, d, c, offsetOf(backend, rowMax), logE, offsetOf(backend, w), flush ?? 0);
  backend.wasm.HEAPF32[offsetOf(backend, scale) / 4] = value;
  return [w, scale];
};

const seriesTermsKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, SERIES_TERMS_KERNEL);
  const { phi, w, rowOff, bias } = inputs as { phi: tf.TensorInfo; w: tf.TensorInfo; rowOff: tf.TensorInfo; bias: tf.TensorInfo };
  const { floor } = attrs as unknown as SeriesTermsAttrs;
  const [n, f] = phi.shape as [number, number];
  const m = w.shape[1]!;
  if (m < MIN_KERNEL_COLUMNS) throw new Error(`${SERIES_TERMS_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} bins, got ${m}`);
  // Φ may be narrower than W is tall: the product takes W's first f rows
  if (w.shape[0]! < f) throw new Error(`${SERIES_TERMS_KERNEL}: Φ has ${f} features, W only ${w.shape[0]} rows`);
  const out = backend.makeOutput([n, m], 'float32');
  if (n > 0) {
    const [pp, pw, pr, pb, po] = [phi, w, rowOff, bias, out].map((t) => offsetOf(backend, t)) as [number, number, number, number, number];
    kernels.seriesTerms(pp, pw, n, m, f, pr, pb, floor, po);
  }
  return out;
};

const seriesFactorKernelFunc: tf.KernelFunc = ({ inputs, backend: b }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, SERIES_FACTOR_KERNEL);
  const { psi, kpos } = inputs as { psi: tf.TensorInfo; kpos: tf.TensorInfo };
  const [e, f] = psi.shape as [number, number];
  const m = kpos.shape[1]!;
  if (m < MIN_KERNEL_COLUMNS || f % 4 !== 0) {
    throw new Error(`${SERIES_FACTOR_KERNEL} needs at least ${MIN_KERNEL_COLUMNS} bins and a multiple of 4 features, got ${m} and ${f}`);
  }
  const out = backend.makeOutput([f, m], 'float32');
  kernels.seriesFactor(offsetOf(backend, psi), offsetOf(backend, kpos), e, m, f, offsetOf(backend, out));
  return out;
};

export interface BiasFloorAttrs {
  /** the floor, LOG_EPS */
  floor: number;
}

export interface LinearPositionKernelAttrs {
  /** the position kernel's log-normaliser */
  c: number;
  /** as FlushAttrs */
  flush: number;
}

export interface SeriesGroundFactorAttrs {
  /** the position kernel's log-normaliser */
  c: number;
  /** as FlushAttrs */
  flush: number;
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
  // a prefix maximum and a suffix minimum over the gaps (one pass over the samples, where sorting a
  // production tetrode's 85 000 samples took several milliseconds per fit)
  const points = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    points[j] = heap[btAt + j]!;
    if (!Number.isFinite(points[j]!)) return false;
  }
  const order = Array.from({ length: m }, (_, j) => j).sort((x, y) => points[x]! - points[y]!);
  const sortedPoints = Float64Array.from(order, (j) => points[j]!);
  const gapLow = new Float64Array(m + 1).fill(Infinity);
  const gapHigh = new Float64Array(m + 1).fill(-Infinity);
  // each sample's gap, from the points' mean spacing, then stepped to the exact one (on a grid the
  // guess is right or one off: no binary search, whose every step was a mispredicted branch)
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

const seriesGroundFactorKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, SERIES_GROUND_FACTOR_KERNEL);
  const { a, bt, psi } = inputs as { a: tf.TensorInfo; bt: tf.TensorInfo; psi: tf.TensorInfo };
  const { c, flush } = attrs as unknown as SeriesGroundFactorAttrs;
  const [n, q] = a.shape as [number, number];
  const [qb, m] = bt.shape as [number, number];
  const [np, f] = psi.shape as [number, number];
  if (qb !== q || np !== n || n === 0 || m < MIN_KERNEL_COLUMNS || m % 4 !== 0 || f % 4 !== 0) {
    throw new Error(
      `${SERIES_GROUND_FACTOR_KERNEL}: positions ${n} × ${q}, centres ${qb} × ${m}, features ${np} × ${f}: expected matching ` +
        `dimensions, at least one position, and bins and features in multiples of 4`,
    );
  }
  const outs = [backend.makeOutput([m], 'float32'), backend.makeOutput([m], 'float32'), backend.makeOutput([f, m], 'float32')];
  const [colMax, colSum, w] = outs.map((t) => offsetOf(backend, t)) as [number, number, number];
  const tile = Math.min(n, SERIES_GROUND_TILE_ROWS);
  const [pa, pb] = [offsetOf(backend, a), offsetOf(backend, bt)];
  const { given, grid } = maximaAndGridPlan(backend, pa, n, q, pb, m, c, colMax);
  if (grid) {
    withGridRows(backend, grid, m, colMax, colSum, flush, (state, floor, sums) =>
      withScratch(backend, [tile * m], ([rows]) => {
        kernels.gridSeriesGroundFactor(state, n, m, grid.q, floor, sums, offsetOf(backend, psi), f, w, rows!, tile);
      }));
    return outs;
  }
  withScratch(backend, [m, m, tile * m], ([expMax, partial, rows]) => {
    kernels.seriesGroundFactor(pa, n, q, pb, m, c, offsetOf(backend, psi), f, colMax, colSum, w, expMax!, partial!, rows!, tile, flush, given ? 1 : 0);
  });
  return outs;
};

/**
 * What the column-sum kernels share before they run, for n samples (q coordinates, heap floats at
 * byte offset pa) against m points (at pb): for one-dimensional samples the column maxima written at
 * colMax from each point's nearest sample (`given`; false when a value is not finite, and the kernel
 * takes its own pass), then the grid kernels' plan where they apply (else null: the exp path).
 */
function maximaAndGridPlan(
  backend: BackendWasm, pa: number, n: number, q: number, pb: number, m: number, c: number, colMax: number,
): { given: boolean; grid: { states: Float64Array; q: number } | null } {
  const given = q === 1 && nearestSampleMaxima(backend.wasm.HEAPF32, pa / 4, n, pb / 4, m, c, colMax / 4);
  return { given, grid: given ? gridPlan(backend, pa, n, pb, m, c) : null };
}

/**
 * The grid kernels' inputs for n one-dimensional samples (heap floats at byte offset pa) against m
 * points (at pb): each row's starting state and the ratios' factor; null when the points are not a
 * uniform grid or a row would leave the float64 range (uniformGrid.ts), and the caller takes the
 * exp path.
 */
function gridPlan(backend: BackendWasm, pa: number, n: number, pb: number, m: number, c: number): { states: Float64Array; q: number } | null {
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
function withGridRows(
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
function runGridRows(
  backend: BackendWasm, kernels: KernelExports, plan: { states: Float64Array; q: number }, n: number, m: number,
  colMax: number, colSum: number, flush: number, rows: number,
): void {
  withGridRows(backend, plan, m, colMax, colSum, rows ? flush : null, (state, floor, sums) =>
    kernels.gridRowsAndSums(state, n, m, plan.q, floor, sums, rows));
}

/** withScratch for float64 arrays: byte offsets aligned to 8, so the host can view them as Float64Array. */
function withFloat64Scratch<T>(backend: BackendWasm, lengths: number[], body: (offsets: number[]) => T): T {
  return withScratch(backend, lengths.map((n) => 2 * n + 1), (offsets) => body(offsets.map((o) => o + (o % 8))));
}

const expFlushedKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, EXP_FLUSHED_KERNEL);
  const x = inputs.x!;
  const n = tf.util.sizeFromShape(x.shape);
  if (x.dtype !== 'float32' || n < LANES) throw new Error(`${EXP_FLUSHED_KERNEL} takes at least ${LANES} float32 values, got ${n} ${x.dtype}`);
  const out = backend.makeOutput(x.shape, 'float32');
  kernels.expFlushed(offsetOf(backend, x), offsetOf(backend, out), n, (attrs as unknown as FlushAttrs).flush);
  return out;
};

const kdeColumnSumsKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, KDE_COLUMN_SUMS_KERNEL);
  const { a, bt } = inputs as { a: tf.TensorInfo; bt: tf.TensorInfo };
  const { c, partRows } = attrs as unknown as KdeColumnSumsAttrs;
  const [n, q] = a.shape as [number, number];
  const [qb, m] = bt.shape as [number, number];
  const rows = partRows ?? [n];
  if (qb !== q || m < MIN_KERNEL_COLUMNS || rows.reduce((t, r) => t + r, 0) !== n || rows.some((r) => !Number.isInteger(r) || r < 0)) {
    throw new Error(
      `${KDE_COLUMN_SUMS_KERNEL}: samples ${n} × ${q} in parts of ${rows.join(', ')} rows, points ${qb} × ${m}: ` +
        `expected matching dimensions, parts that add up to the samples, and at least ${MIN_KERNEL_COLUMNS} points`,
    );
  }
  const colMax = backend.makeOutput([rows.length, m], 'float32');
  const colSum = backend.makeOutput([rows.length, m], 'float32');
  const [pa, pb, pMax, pSum] = [a, bt, colMax, colSum].map((t) => offsetOf(backend, t)) as [number, number, number, number];
  withScratch(backend, [m, m, m], ([row, shifted, partial]) => {
    let first = 0;
    rows.forEach((count, k) => {
      const at = pa + first * q * 4;
      const [partMax, partSum] = [pMax + k * m * 4, pSum + k * m * 4];
      const { given, grid } = maximaAndGridPlan(backend, at, count, q, pb, m, c, partMax);
      if (grid) runGridRows(backend, kernels, grid, count, m, partMax, partSum, 0, 0);
      else kernels.kdeColumnSums(at, count, q, pb, m, c, partMax, partSum, row!, shifted!, partial!, given ? 1 : 0);
      first += count;
    });
  });
  return [colMax, colSum];
};

/**
 * The linear position kernel of linearPositionKernel (kernels.ts): a (n × q) samples and bt (q × m)
 * bins, over the widths, → [kernel (n × m), colMax (m), colSum (m)] as COLUMN_SCALED_EXP_KERNEL
 * gives them on GAUSS_KERNEL's log kernel (the same operations, here in one call), or, for
 * one-dimensional samples on a uniform grid, the grid kernel's (no exp per entry). Its column sums
 * are then kdeColumnSums' for the same samples, bit for bit, and its kernel rows
 * seriesGroundFactor's: a fit that keeps the kernel and one that does not get the same numbers.
 */
const linearPositionKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, LINEAR_POSITION_KERNEL);
  const { a, bt } = inputs as { a: tf.TensorInfo; bt: tf.TensorInfo };
  const { c, flush } = attrs as unknown as LinearPositionKernelAttrs;
  const [n, q] = a.shape as [number, number];
  const [qb, m] = bt.shape as [number, number];
  if (qb !== q || m < MIN_KERNEL_COLUMNS) {
    throw new Error(`${LINEAR_POSITION_KERNEL}: samples ${n} × ${q}, bins ${qb} × ${m}: expected matching dimensions and at least ${MIN_KERNEL_COLUMNS} bins`);
  }
  const outs = [backend.makeOutput([n, m], 'float32'), backend.makeOutput([m], 'float32'), backend.makeOutput([m], 'float32')];
  const [dst, colMax, colSum] = outs.map((t) => offsetOf(backend, t)) as [number, number, number];
  const [pa, pb] = [offsetOf(backend, a), offsetOf(backend, bt)];
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
};

const positionFactorRowsKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, POSITION_FACTOR_ROWS_KERNEL);
  const { a, order, bt } = inputs as { a: tf.TensorInfo; order: tf.TensorInfo; bt: tf.TensorInfo };
  const { first, count, c, flush } = attrs as unknown as PositionFactorRowsAttrs;
  const [nEnc, q] = a.shape as [number, number];
  const [qb, m] = bt.shape as [number, number];
  if (order.dtype !== 'int32' || order.shape[0] !== nEnc || qb !== q || m < MIN_KERNEL_COLUMNS || first < 0 || count < 0 || first + count > nEnc) {
    throw new Error(
      `${POSITION_FACTOR_ROWS_KERNEL}: positions ${nEnc} × ${q}, order of ${order.shape[0]} (${order.dtype}), bins ${qb} × ${m}, ` +
        `rows ${first} … ${first + count - 1}: expected an int32 order of every spike, matching dimensions, at least ${MIN_KERNEL_COLUMNS} bins`,
    );
  }
  const dst = backend.makeOutput([count, m], 'float32');
  const rowMax = backend.makeOutput([count], 'float32');
  const grid = q === 1 && count > 0 ? factorRowsOnGrid(backend, a, order, first, count, bt, c) : null;
  if (grid) {
    backend.wasm.HEAPF32.set(grid.rowMax, offsetOf(backend, rowMax) / 4);
    withFloat64Scratch(backend, [grid.states.length], ([state]) => {
      new Float64Array(backend.wasm.HEAPF32.buffer).set(grid.states, state! / 8);
      kernels.gridFactorRows(state!, count, m, grid.q, flush, offsetOf(backend, dst));
    });
  } else if (count > 0) {
    kernels.positionFactorRows(
      offsetOf(backend, a), offsetOf(backend, order), first, count, q, offsetOf(backend, bt), m, c, offsetOf(backend, dst), offsetOf(backend, rowMax), flush,
    );
  }
  return [dst, rowMax];
};

/**
 * The grid kernel's plan for position-factor rows first … first + count − 1 of the spikes in
 * `order` (one-dimensional positions a over the width, bins bt): their positions gathered, the
 * rows' maxima and states (uniformGrid.ts); null off a uniform grid or out of range.
 */
function factorRowsOnGrid(
  backend: BackendWasm, a: tf.TensorInfo, order: tf.TensorInfo, first: number, count: number, bt: tf.TensorInfo, c: number,
): { states: Float64Array; q: number; rowMax: Float32Array } | null {
  const m = bt.shape[1]!;
  const heap = backend.wasm.HEAPF32;
  const pb = offsetOf(backend, bt) / 4;
  const grid = m % 4 === 0 ? uniformGridOf(heap.subarray(pb, pb + m)) : null;
  if (!grid) return null;
  const pa = offsetOf(backend, a) / 4;
  const spikes = new Int32Array(heap.buffer, offsetOf(backend, order) + first * 4, count);
  const positions = new Float32Array(count);
  for (let i = 0; i < count; i++) positions[i] = heap[pa + spikes[i]!]!;
  return gridFactorRowStates(positions, grid, m, c);
}

const biasFloorKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, BIAS_FLOOR_KERNEL);
  const { x, bias } = inputs as { x: tf.TensorInfo; bias: tf.TensorInfo };
  const [n, m] = x.shape as [number, number];
  if (x.shape.length !== 2 || bias.shape.length !== 1 || bias.shape[0] !== m || x.dtype !== 'float32' || bias.dtype !== 'float32') {
    throw new Error(`${BIAS_FLOOR_KERNEL}: values ${x.shape.join(' × ')} (${x.dtype}), bias ${bias.shape.join(' × ')} (${bias.dtype}): expected float32 rows and a bias per column`);
  }
  const out = backend.makeOutput([n, m], 'float32');
  if (n > 0 && m > 0) kernels.biasFloor(offsetOf(backend, x), offsetOf(backend, bias), n, m, (attrs as unknown as BiasFloorAttrs).floor, offsetOf(backend, out));
  return out;
};

const packPanelsKernelFunc: tf.KernelFunc = ({ inputs, backend: b }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, PACK_PANELS_KERNEL);
  const x = inputs.x!;
  const [k, n] = x.shape as [number, number];
  const panels = Math.ceil(n / PANEL_COLUMNS);
  const flags = backend.makeOutput([panels], 'int32');
  const stored = k > 0 && n > 0 ? kernels.panelFlags(offsetOf(backend, x), k, n, offsetOf(backend, flags)) : 0;
  if (k === 0) backend.wasm.HEAP32.fill(0, offsetOf(backend, flags) / 4, offsetOf(backend, flags) / 4 + panels);
  const packed = backend.makeOutput([stored, k, PANEL_COLUMNS], 'float32');
  if (stored > 0) kernels.packPanels(offsetOf(backend, x), k, n, offsetOf(backend, flags), offsetOf(backend, packed));
  return [packed, flags];
};

/** How many panels `flags` (int32, PACK_PANELS_KERNEL) says were stored. */
function storedPanels(backend: BackendWasm, flags: tf.TensorInfo): number {
  const at = offsetOf(backend, flags) / 4;
  return backend.wasm.HEAP32.subarray(at, at + flags.shape[0]!).reduce((n, f) => n + f, 0);
}

const scaledChunkProductKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, SCALED_CHUNK_PRODUCT_KERNEL);
  const { w, chunkScale, packed, flags, prevSum, prevScale } = inputs as Record<string, tf.TensorInfo | undefined>;
  const { columns } = attrs as unknown as ScaledChunkProductAttrs;
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
  const chunk = heap()[offsetOf(backend, chunkScale!) / 4]!;
  const prev = prevScale === undefined ? undefined : heap()[offsetOf(backend, prevScale) / 4]!;
  // the first chunk is taken as it is, like foldScaledChunk's first step
  const scale = prev === undefined ? chunk : Math.max(prev, chunk);
  const alpha = prev === undefined ? 0 : Math.exp(prev - scale);
  const beta = prev === undefined ? 1 : Math.exp(chunk - scale);
  const sum = backend.makeOutput([m, columns], 'float32');
  const scaleOut = backend.makeOutput([], 'float32');
  withScratch(backend, [PANEL_COLUMNS], ([scratch]) =>
    kernels.packedProduct(
      offsetOf(backend, w!), offsetOf(backend, packed!), offsetOf(backend, flags!), m, k, columns, prevSum === undefined ? 0 : offsetOf(backend, prevSum), alpha, beta,
      offsetOf(backend, sum), scratch!,
    ),
  );
  // the heap view is fetched again: the outputs' allocation may have grown the memory
  heap()[offsetOf(backend, scaleOut) / 4] = scale;
  return [sum, scaleOut];
};

/** interpolatedTerms' scratch: a row's 8 sums, then its weight's 10 constants, four floats each */
const INTERPOLATED_SCRATCH_FLOATS = 72;

/** float32 values per vector of four spikes in interpolatedTerms' layout: D mark rows, then 8 Lagrange weight rows */
export function interpolatedSpikeVectorFloats(nFeatures: number): number {
  return 4 * (nFeatures + 8);
}

const interpolatedTermsKernelFunc: tf.KernelFunc = ({ inputs, backend: b, attrs }) => {
  const backend = b as BackendWasm;
  const kernels = kernelsFor(backend, INTERPOLATED_TERMS_KERNEL);
  const { a, spikes, chunks, h, bias, direction, bounds } = inputs as Record<string, tf.TensorInfo>;
  const { off, floor, reach } = attrs as unknown as InterpolatedTermsAttrs;
  const [n, d] = a!.shape as [number, number];
  const m = bias!.shape[0]!;
  const nChunks = chunks!.shape[0]!;
  const vectors = spikes!.shape[0]! / interpolatedSpikeVectorFloats(d);
  if (
    m < MIN_KERNEL_COLUMNS || m % 4 !== 0 || d < 1 || !Number.isInteger(vectors) || chunks!.dtype !== 'int32' || chunks!.shape[1] !== 5 ||
    direction!.shape[0] !== d || bounds!.shape[0] !== 2 * vectors || [a, spikes, h, bias, direction, bounds].some((t) => t!.dtype !== 'float32')
  ) {
    throw new Error(
      `${INTERPOLATED_TERMS_KERNEL}: marks ${n} × ${d}, spikes of ${spikes!.shape[0]} floats, chunks ${chunks!.shape.join(' × ')} (${chunks!.dtype}), ` +
        `bias of ${m}, direction of ${direction!.shape[0]}, bounds of ${bounds!.shape[0]}: expected float32 inputs, int32 chunks of 5, whole spike ` +
        'vectors with two bounds each, a direction per feature and a multiple of 4 bins',
    );
  }
  // the table must stay inside the tensors it points into: the kernel reads without bounds checks
  const table = backend.wasm.HEAP32.subarray(offsetOf(backend, chunks!) / 4, offsetOf(backend, chunks!) / 4 + 5 * nChunks);
  for (let c = 0; c < nChunks; c++) {
    const [v0, v1, p0, p1, hAt] = table.subarray(5 * c, 5 * c + 5) as unknown as [number, number, number, number, number];
    if (!(v0 >= 0 && v0 <= v1 && v1 <= vectors && p0 >= 0 && p0 <= p1 && 4 * p1 <= m && hAt >= 0 && hAt + 32 * (p1 - p0) <= h!.shape[0]!)) {
      throw new Error(`${INTERPOLATED_TERMS_KERNEL}: chunk ${c} (${[v0, v1, p0, p1, hAt].join(', ')}) reaches outside ${vectors} spike vectors, ${m} bins or h`);
    }
  }
  const out = backend.makeOutput([n, m], 'float32');
  const taken = backend.makeOutput([], 'int32');
  let takenVectors = 0;
  if (n > 0) {
    const [pa, ps, pc, ph, pb, po, pd, pu] = [a!, spikes!, chunks!, h!, bias!, out, direction!, bounds!].map((t) => offsetOf(backend, t)) as number[];
    takenVectors = withScratch(backend, [INTERPOLATED_SCRATCH_FLOATS], ([scratch]) =>
      kernels.interpolatedTerms(pa!, n, d, ps!, pc!, nChunks, ph!, m, off, pb!, floor, po!, pd!, pu!, reach, scratch!));
  }
  backend.wasm.HEAP32[offsetOf(backend, taken) / 4] = takenVectors;
  return [out, taken];
};

function replaceKernel(name: string, kernelFunc: (original: tf.KernelConfig) => tf.KernelFunc): void {
  const original = tf.getKernel(name, 'wasm');
  if (!original) throw new Error(`the wasm backend has no ${name} kernel to replace`);
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc: kernelFunc(original) });
}

/**
 * Installs the kernels on the active wasm backend (a no-op when they already are). Call after
 * tf.setBackend('wasm') has resolved: the module needs the backend's memory. Says whether the
 * packed product has fused multiply-adds.
 */
export function installWasmKernels(): { fusedMultiplyAdd: boolean } {
  const backend = tf.backend() as BackendWasm;
  const known = installedOn.get(backend);
  if (known) return { fusedMultiplyAdd: known.fusedMultiplyAdd };
  const installed = instantiate(backend);
  installedOn.set(backend, installed);
  // the registry is per thread, not per backend: register once, the kernels look their module up
  if (!tf.getKernel(GAUSS_KERNEL, 'wasm')) {
    replaceKernel('Exp', (original) => unaryKernel(original, 'exp', Math.exp));
    replaceKernel('Log', (original) => unaryKernel(original, 'log', Math.log));
    tf.registerKernel({ kernelName: GAUSS_KERNEL, backendName: 'wasm', kernelFunc: gaussKernelFunc });
    tf.registerKernel({ kernelName: COLUMN_SCALED_EXP_KERNEL, backendName: 'wasm', kernelFunc: columnScaledExpKernelFunc });
    tf.registerKernel({ kernelName: LINEAR_POSITION_KERNEL, backendName: 'wasm', kernelFunc: linearPositionKernelFunc });
    tf.registerKernel({ kernelName: COMPENSATED_WEIGHTS_KERNEL, backendName: 'wasm', kernelFunc: compensatedWeightsKernelFunc });
    tf.registerKernel({ kernelName: SERIES_TERMS_KERNEL, backendName: 'wasm', kernelFunc: seriesTermsKernelFunc });
    tf.registerKernel({ kernelName: SERIES_FACTOR_KERNEL, backendName: 'wasm', kernelFunc: seriesFactorKernelFunc });
    tf.registerKernel({ kernelName: SERIES_GROUND_FACTOR_KERNEL, backendName: 'wasm', kernelFunc: seriesGroundFactorKernelFunc });
    tf.registerKernel({ kernelName: EXP_FLUSHED_KERNEL, backendName: 'wasm', kernelFunc: expFlushedKernelFunc });
    tf.registerKernel({ kernelName: POSITION_FACTOR_ROWS_KERNEL, backendName: 'wasm', kernelFunc: positionFactorRowsKernelFunc });
    tf.registerKernel({ kernelName: KDE_COLUMN_SUMS_KERNEL, backendName: 'wasm', kernelFunc: kdeColumnSumsKernelFunc });
    tf.registerKernel({ kernelName: PACK_PANELS_KERNEL, backendName: 'wasm', kernelFunc: packPanelsKernelFunc });
    tf.registerKernel({ kernelName: BIAS_FLOOR_KERNEL, backendName: 'wasm', kernelFunc: biasFloorKernelFunc });
    tf.registerKernel({ kernelName: SCALED_CHUNK_PRODUCT_KERNEL, backendName: 'wasm', kernelFunc: scaledChunkProductKernelFunc });
    tf.registerKernel({ kernelName: INTERPOLATED_TERMS_KERNEL, backendName: 'wasm', kernelFunc: interpolatedTermsKernelFunc });
  }
  return { fusedMultiplyAdd: installed.fusedMultiplyAdd };
}

/** Whether the active backend runs the engine kernels. */
export function hasWasmKernels(): boolean {
  return tf.getBackend() === 'wasm' && installedOn.has(tf.backend());
}
