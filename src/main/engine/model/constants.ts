/**
 * Constants of the clusterless-KDE likelihood (kde-spec §1) and the engine's defaults, defined
 * once: the engine, the data loaders, the memory model and the analysis all read them here.
 */

/** floor inside safe_log and of each ground-process term */
export const EPS = 1e-15;
/** ln(EPS): floor of every per-spike log term of the non-local likelihood */
export const LOG_EPS = Math.log(EPS);
export const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
/** kde-spec §1 defaults of the kernel widths */
export const DEFAULT_POSITION_STD = Math.sqrt(12.5);
export const DEFAULT_WAVEFORM_STD = 24.0;
/** decoding spikes per block B when neither the run nor the dataset names one */
export const DEFAULT_BLOCK_SIZE = 100;
/** spec §1 `_COMPENSATED_LINEAR_MAX_FEATURES`: compensated-linear is exact enough up to here */
export const COMPENSATED_MAX_FEATURES = 8;
/** `auto` keeps each electrode's estimated device peak under this many bytes unless told otherwise */
export const DEFAULT_MEMORY_BUDGET_BYTES = 1024 ** 3;
/**
 * The most one electrode's working set may take, whatever the budget: a plan sizes its chunks and
 * kernels within the smaller of the two. The wasm backend's heap goes wrong past 2 GiB (its offsets
 * are signed 32-bit), and a streaming chunk holds its position kernel, its factor and the product's
 * operands at once, about three times C·P, beside the kept kernels. On a 2-D grid of 3 177 bins,
 * chunks planned at 512 MiB of C·P gave NaN or terms off by up to 57 nats in some rows, and at
 * 1 GiB in thousands of bins; at 256 MiB every term matched the one-thread result.
 */
export const MAX_WORKING_SET_BYTES = 256 * 1024 ** 2;
/** what the wasm backend's heap holds correctly: its offsets are signed 32-bit */
export const WASM_HEAP_BYTES = 2 ** 31;
/** the engine's encoding chunk and position tile when a run names none */
export const DEFAULT_ENC_TILE_SIZE = 256;
export const DEFAULT_POS_TILE_SIZE = 256;
/**
 * The share of the memory budget a windowed decode may keep position kernels in across windows: on
 * the production recording (32 tetrodes, 4.2 M spikes, 2 workers) keeping them within the whole 1 GiB
 * peaked at 2.06 GiB RSS for 38.0 s of decode, within a quarter of it at 1.54 GiB for 41.3 s.
 */
export const KEPT_KERNEL_BUDGET_SHARE = 0.25;
/**
 * Rows per window of a decode that names none (`decode --rows-per-chunk`), and of a profiling run's
 * posterior stage, so the filter and smoother spans of a run and of a decode cover alike: the window
 * is what the posterior stage holds at once, and so what its memory estimate is made of.
 */
export const DEFAULT_ROWS_PER_WINDOW = 2000;
/** The `series` strategy's feature limit: its (F × P) factor and (B × F) features stay small. */
export const MAX_SERIES_FEATURES = 256;
/** `series` takes at most E / this many features, else the direct product is about as cheap. */
export const SERIES_MIN_SAVING = 4;
export const FLOAT32_BYTES = 4;
export const FLOAT64_BYTES = 8;
