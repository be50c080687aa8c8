/**
 * The engine's own TensorFlow.js kernels by name, and what each takes: inputs in the comment,
 * attributes as a type. The ops (engine/ops) ask for a kernel by these names and TensorFlow.js
 * finds it on the active backend, so the names are the seam between an op and a backend's kernel:
 * simd/ implements them for wasm, webgpu/ for WebGPU, each saying which shapes it takes.
 * EngineKernelAttrs ties each name to its attributes, for the caller and the kernel alike.
 */

/** the fused Gaussian kernel matrix: a (n × d), bt (d × m) over the widths → log K or K (n × m) */
export const GAUSS_KERNEL = 'KdeGaussKernel';
/**
 * the column-rescaled exp: x (n × m) → [exp(x), max_i x, Σ_i exp(x − max)],
 * with attrs { flush } (FlushAttrs) exp(x − max) below it set to 0
 */
export const COLUMN_SCALED_EXP_KERNEL = 'KdeColumnScaledExp';
/**
 * the compensated strategy's weights for one block and encoding chunk:
 * a (B × D), bt (D × E), rowMax (E) → [w (B × E), C* (scalar)]
 */
export const COMPENSATED_WEIGHTS_KERNEL = 'KdeCompensatedWeights';
/**
 * the series strategy's spike terms: phi (n × F), w (F × P), rowOff (n),
 * bias (P) → max(log(max(phi·w, 0)) + rowOff + bias, floor), (n × P)
 */
export const SERIES_TERMS_KERNEL = 'KdeSeriesTerms';
/** the series strategy's factor: psi (E × F), kpos (E × P) → psiᵀ·kpos (F × P), F a multiple of 4 */
export const SERIES_FACTOR_KERNEL = 'KdeSeriesFactor';
/**
 * packing a (k × n) matrix in panels of eight columns for the packed product:
 * → [packed (panels stored × k × 8), flags (⌈n/8⌉ int32, 1 where the panel holds anything but 0)];
 * only the panels flagged 1 are stored
 */
export const PACK_PANELS_KERNEL = 'KdePackPanels';
/**
 * one step of the compensated strategy's running fold with a packed factor:
 * w (B × C), chunkScale (scalar), packed and flags (PACK_PANELS_KERNEL), and the state so far (prevSum (B × P),
 * prevScale) when there is one → [sum, scale] with scale = max(prevScale, chunkScale) and
 * sum = prevSum·e^(prevScale − scale) + (w·factor)·e^(chunkScale − scale)
 */
export const SCALED_CHUNK_PRODUCT_KERNEL = 'KdeScaledChunkProduct';
/** columns per panel of a packed operand */
export const PANEL_COLUMNS = 8;
/**
 * the compensated strategy's position factor for a chunk of encoding spikes
 * in a given order, from their positions: a (E × Q) and bt (Q × P) already over the kernel widths,
 * order (E, int32) → [factor (count × P), rowMax (count)]: per row of the log kernel of spikes
 * order[first … first + count − 1] its maximum and exp(row − maximum), 0 below `flush` when it is above 0
 */
export const POSITION_FACTOR_ROWS_KERNEL = 'KdePositionFactorRows';
/**
 * Gaussian KDE parts' column sums: a (n × q) samples and bt (q × m) points,
 * both over the kernel widths, the samples in consecutive parts (KdeColumnSumsAttrs) → [colMax,
 * colSum] (parts × m), per part the maximum log kernel at each point and the sum of
 * exp(logK − colMax), without the (n × m) kernel
 */
export const KDE_COLUMN_SUMS_KERNEL = 'KdeColumnSums';
/**
 * a series fit's electrode: a (n × q) positions and bt (q × m) bin centres,
 * both over the kernel widths, psi (n × F) → [colMax (m), colSum (m), w (F × m)]: what
 * COLUMN_SCALED_EXP_KERNEL gives on the log kernel (without the kernel) and SERIES_FACTOR_KERNEL
 * then gives on the linear kernel, bit for bit; m and F multiples of 4
 */
export const SERIES_GROUND_FACTOR_KERNEL = 'KdeSeriesGroundFactor';
/**
 * the linear position kernel: a (n × q) samples and bt (q × m) bins, both
 * over the kernel widths, attrs LinearPositionKernelAttrs → [kernel (n × m), colMax (m), colSum (m)]
 * as COLUMN_SCALED_EXP_KERNEL gives them on the log kernel
 */
export const LINEAR_POSITION_KERNEL = 'KdeLinearPositionKernel';
/**
 * the strategies' epilogue: x (n × m), bias (m) → max(x + bias, floor)
 * (BiasFloorAttrs), the op graph add → maximum in one pass
 */
export const BIAS_FLOOR_KERNEL = 'KdeBiasFloor';
/**
 * exp with results below `flush` (FlushAttrs) dropped, the exp the engine's
 * KDE, position-factor and weights kernels run: x → exp(x), x ≤ 0 and at least 4 elements
 */
export const EXP_FLUSHED_KERNEL = 'KdeExpFlushed';
/**
 * the series strategy's exact handoff on one-dimensional positions
 * (strategies/series/interpolated.ts): a (n × D) decoding marks over the widths, spikes, chunks
 * (int32), h, direction (D) and bounds (2 per spike vector) in interpolatedTerms' layouts
 * (kdeKernels.wat), bias (m) → [ℓ (n × m), the spike vectors its rows took (int32 scalar)], m a multiple of 4
 */
export const INTERPOLATED_TERMS_KERNEL = 'KdeInterpolatedTerms';
/**
 * one electrode's non-local spike terms for a block of decoding spikes, mark kernel, position
 * factor, log, bias and floor in one kernel (kde-spec §7e with a scale per spike):
 * dec (S × D) raw decoding marks of which the block is rows first … first + count − 1 (B = count), invStd (D), encT (D × E) encoding marks over the widths,
 * rowMax (E or 1 × E) and factor (E × P) the compensated position factor (positionFactorRows),
 * bias (P) → ℓ (B × P) = max(log Σ_i exp(logKmark(s,i) + a_i − M_s)·F[i,p] + M_s − log E + bias_p, floor),
 * M_s = max over the finite a_i of logKmark(s,i) + a_i; the floor where the sum is 0 or bias_p is not finite
 */
export const FUSED_LIKELIHOOD_KERNEL = 'KdeFusedLikelihood';
/**
 * A block of an electrode's spike terms summed into a window's rows on the device, so a window's
 * likelihood leaves the device once: acc ((2T + N) × P), terms (B × P), offsets (R + 1) int32,
 * order (B) int32 → acc with the block added, every other element as it was. Rows 0 … T − 1 of acc
 * hold each output row's sum of terms above the floor, rows T … 2T − 1 how many of its terms sat
 * on the floor (≤ floor), and row 2T + e electrode e's floored terms per bin. The block's spikes of
 * output row rowFirst + r are order[offsets[r]] … order[offsets[r + 1] − 1], added in that order.
 * A NaN term is summed (the row stays NaN).
 */
export const ACCUMULATE_ROWS_KERNEL = 'KdeAccumulateRows';
/** the fewest columns the fused kernels take; narrower inputs stay on the op graph */
export const MIN_KERNEL_COLUMNS = 4;

/** float32 values per vector of four spikes in interpolatedTerms' layout: D mark rows, then 8 Lagrange weight rows */
export function interpolatedSpikeVectorFloats(nFeatures: number): number {
  return 4 * (nFeatures + 8);
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
  /**
   * Shift every column by the kernel's peak c instead of its own maximum: one pass over the rows
   * instead of two, and terms below 2^−63 of the peak are dropped (the caller bounds what that leaves out).
   */
  shiftByPeak?: boolean;
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

export interface InterpolatedTermsAttrs {
  /** added to every log sum: the kernels' log-normalisers, −log E and the scale H carries */
  off: number;
  /** the floor of every term (LOG_EPS) */
  floor: number;
  /** how far along `direction` a row looks for spikes (strategies/series/interpolationPlan.ts) */
  reach: number;
}

export interface FusedLikelihoodAttrs {
  /** the block: rows first … first + count − 1 of dec (no slice of it is dispatched) */
  first: number;
  count: number;
  /** the mark kernel's log-normaliser */
  c: number;
  /** log E, E the electrode's encoding spikes */
  logE: number;
  /** the floor of every term (LOG_EPS) */
  floor: number;
}

export interface AccumulateRowsAttrs {
  /** the output row of the block's first row range (offsets[0]) */
  rowFirst: number;
  /** T, the window's output rows */
  nTime: number;
  /** the electrode whose floored terms row 2T + electrode counts */
  electrode: number;
  /** the floor of every term (float32 LOG_EPS) */
  floor: number;
}

export interface GaussAttrs {
  /** log-normaliser added to every entry */
  c: number;
  /** true: exp of the log-kernel (the linear kernel) */
  linear: boolean;
}

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

/** a kernel that takes no attributes */
export type NoAttrs = Record<string, never>;

/** Each engine kernel's attributes, by its name: what a caller passes and what the kernel reads. */
export interface EngineKernelAttrs {
  [GAUSS_KERNEL]: GaussAttrs;
  [COLUMN_SCALED_EXP_KERNEL]: Partial<FlushAttrs>;
  [COMPENSATED_WEIGHTS_KERNEL]: CompensatedWeightsAttrs;
  [SERIES_TERMS_KERNEL]: SeriesTermsAttrs;
  [SERIES_FACTOR_KERNEL]: NoAttrs;
  [PACK_PANELS_KERNEL]: NoAttrs;
  [SCALED_CHUNK_PRODUCT_KERNEL]: ScaledChunkProductAttrs;
  [POSITION_FACTOR_ROWS_KERNEL]: PositionFactorRowsAttrs;
  [KDE_COLUMN_SUMS_KERNEL]: KdeColumnSumsAttrs;
  [SERIES_GROUND_FACTOR_KERNEL]: SeriesGroundFactorAttrs;
  [LINEAR_POSITION_KERNEL]: LinearPositionKernelAttrs;
  [BIAS_FLOOR_KERNEL]: BiasFloorAttrs;
  [EXP_FLUSHED_KERNEL]: FlushAttrs;
  [INTERPOLATED_TERMS_KERNEL]: InterpolatedTermsAttrs;
  [FUSED_LIKELIHOOD_KERNEL]: FusedLikelihoodAttrs;
  [ACCUMULATE_ROWS_KERNEL]: AccumulateRowsAttrs;
}

export type EngineKernelName = keyof EngineKernelAttrs;
