/**
 * The host's half of the grid kernels in kdeKernels/uniformGrid.wat ($gridRows): a one-dimensional Gaussian
 * KDE evaluated on bins that are evenly spaced needs no exp per entry, because along a sample's row
 * the log kernel z_k = c − ½(u − kδ)² is quadratic in the bin index k, so each entry is the one four
 * bins before it times a ratio that itself changes by a constant factor. Here: whether the bins are
 * such a grid, each row's starting values from exact exponents, and the checks that keep every
 * value of the recurrence inside the float64 range (otherwise the caller takes the exp path).
 */

/** A uniform grid over the kernel width: bin k at start + k·step. */
export interface UniformGrid {
  start: number;
  step: number;
}

/** Exponents the recurrence may reach: well inside float64's ±708, with room for rounding. */
const MAX_EXPONENT = 690;
/** How far a float32 bin centre may sit from the fitted grid, relative to the grid's extent: the
 * centres over the width are three float32 roundings (centre, 1/width, product) from exact. */
const GRID_TOLERANCE = 2 ** -21;

/**
 * The uniform grid through the m float32 points bt (already over the kernel width), or null when
 * they are not evenly spaced up to their float32 rounding, not finite, or fewer than 4. The grid is
 * drawn through the first and last points, whose rounding is the only error it inherits.
 */
export function uniformGridOf(bt: ArrayLike<number>): UniformGrid | null {
  const m = bt.length;
  if (m < 4) return null;
  const start = bt[0]!;
  const end = bt[m - 1]!;
  const step = (end - start) / (m - 1);
  if (!Number.isFinite(step) || step === 0) return null;
  const tolerance = GRID_TOLERANCE * Math.max(Math.abs(start), Math.abs(end));
  for (let k = 1; k < m - 1; k++) {
    if (!(Math.abs(bt[k]! - (start + k * step)) <= tolerance)) return null;
  }
  return { start, step };
}

/**
 * Half-width, in kernel widths, of a row's window when the whole grid would take its recurrence out of
 * float64's range: the bins beyond it get 0 (e^{−½·33²} ≈ e^{−544} of the row's largest value, below
 * float32's range and the 2^−63 flush).
 */
const WINDOW_WIDTHS = 34;
/**
 * With windowed rows, a column's sum leaves out samples ≥ ~33 widths away; that is negligible (below
 * e^{−250} of the sum) in every column with a sample within this many widths, which gridCovered checks.
 */
const COVER_WIDTHS = 24;
/** float64 slots per row state: g_0 … g_3, R_0 … R_3, then the window's byte offsets as two int32 */
export const GRID_STATE_FLOATS = 10;

/**
 * Each row's window of bins [lo, hi) (both multiples of 4, in bins): the whole grid when its
 * recurrence stays in float64's range there, else ±WINDOW_WIDTHS around the sample's nearest bin;
 * null when a window still leaves the range (bins several widths apart) or a sample is not finite.
 * `windowed`: some row did not take the whole grid.
 */
export function gridRowWindows(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): { windows: Int32Array; windowed: boolean } | null {
  if (c > MAX_EXPONENT) return null;
  const step = Math.abs(grid.step);
  const half = Math.floor(WINDOW_WIDTHS / step);
  const windows = new Int32Array(2 * a.length);
  let windowed = false;
  // the lowest exponent of a row is at one end of its window, the highest at its nearest bin
  const fits = (u: number, lo: number, hi: number): boolean => {
    const far = Math.max(Math.abs(u - lo * grid.step), Math.abs(u - (hi - 1) * grid.step));
    return c - 0.5 * far * far >= -MAX_EXPONENT && 4 * step * (far + 4 * step) <= MAX_EXPONENT;
  };
  for (let i = 0; i < a.length; i++) {
    const u = a[i]! - grid.start;
    if (!Number.isFinite(u)) return null;
    let [lo, hi] = [0, m];
    if (!fits(u, lo, hi)) {
      const nearest = Math.min(m - 1, Math.max(0, Math.round(u / grid.step)));
      lo = Math.max(0, (nearest - half) & ~3);
      hi = Math.min(m, (nearest + half + 4) & ~3);
      if (!fits(u, lo, hi)) return null;
      windowed = true;
    }
    windows[2 * i] = lo;
    windows[2 * i + 1] = hi;
  }
  return { windows, windowed };
}

/**
 * Whether every bin of the grid has a sample within COVER_WIDTHS: then windowed rows leave nothing
 * out of any column's sum that a float64 sum would keep.
 */
export function gridCovered(a: ArrayLike<number>, grid: UniformGrid, m: number): boolean {
  const sorted = Float64Array.from(a).sort();
  const n = sorted.length;
  const step = Math.abs(grid.step);
  const first = Math.min(grid.start, grid.start + (m - 1) * grid.step);
  const last = first + (m - 1) * step;
  if (n === 0 || first < sorted[0]! - COVER_WIDTHS || last > sorted[n - 1]! + COVER_WIDTHS) return false;
  for (let i = 0; i + 1 < n; i++) {
    const [from, to] = [sorted[i]! + COVER_WIDTHS, sorted[i + 1]! - COVER_WIDTHS];
    if (to <= from) continue;
    // the first bin past `from`: inside the gap, it has no sample within COVER_WIDTHS
    const j = Math.floor((from - first) / step) + 1;
    if (j < m && first + j * step < to) return false;
  }
  return true;
}

/**
 * Whether the grid kernels take n ≥ 1 samples a against the points bt (both float32 values over the
 * kernel width, as the kernels read them): a multiple of 4 points on a uniform grid, every row's
 * window in range, and with windowed rows every bin covered (unless `rowsShifted`: rows over their own
 * maximum and no column sums, as the compensated factor's). The kernels decide with the same
 * functions, so a caller can count the work beforehand.
 */
export function gridApplies(a: ArrayLike<number>, bt: ArrayLike<number>, c: number, rowsShifted = false): boolean {
  if (a.length === 0 || bt.length % 4 !== 0) return false;
  const grid = uniformGridOf(bt);
  return grid !== null && gridRowsUsable(a, grid, bt.length, rowsShifted ? 0 : c, rowsShifted) !== null;
}

/** gridRowWindows, and gridCovered where windowed column sums need it; null when the grid path does not apply. */
function gridRowsUsable(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number, rowsShifted: boolean): Int32Array | null {
  const w = gridRowWindows(a, grid, m, c);
  if (!w || (w.windowed && !rowsShifted && !gridCovered(a, grid, m))) return null;
  return w.windows;
}

/**
 * Each sample's row state for $gridRows (GRID_STATE_FLOATS float64 per sample: g_0 … g_3 = the
 * kernel at the window's first four bins, R_j = e^{z_{j+4} − z_j}, then the window's byte offsets
 * [lo, hi) in a float32 row as two int32), and the ratios' own factor e^{−16δ²}; or null when the grid
 * path does not apply (gridApplies).
 */
export function gridRowStates(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): { states: Float64Array; q: number } | null {
  const windows = gridRowsUsable(a, grid, m, c, false);
  return windows ? rowStates(a, grid, windows, (): number => c) : null;
}

/**
 * The position-factor rows' states: each row divided by its maximum, e^{z_k − rowMax}, rowMax the
 * float32 log kernel at the sample's nearest bin (what a pass over the row finds, up to rounding;
 * any shift serves, the weights use the same). Null when the grid path does not apply (the shifted
 * exponents are at most a fraction of a bin's width squared above 0, so the range test takes c = 0).
 */
export function gridFactorRowStates(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): { states: Float64Array; q: number; rowMax: Float32Array } | null {
  const windows = gridRowsUsable(a, grid, m, 0, true);
  if (!windows) return null;
  const rowMax = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const u = a[i]! - grid.start;
    const nearest = Math.min(m - 1, Math.max(0, Math.round(u / grid.step)));
    const d = u - nearest * grid.step;
    rowMax[i] = c - 0.5 * d * d;
  }
  return { ...rowStates(a, grid, windows, (i) => c - rowMax[i]!), rowMax };
}

/** Each row's state as gridRowStates describes it, row i's log-normaliser cOf(i), its window from windows. */
function rowStates(a: ArrayLike<number>, grid: UniformGrid, windows: Int32Array, cOf: (i: number) => number): { states: Float64Array; q: number } {
  const { start, step } = grid;
  const n = a.length;
  const states = new Float64Array(n * GRID_STATE_FLOATS);
  const offsets = new Int32Array(states.buffer);
  // z_j = z_0 + jδu − ½j²δ² (u from the window's first bin): with E = e^{δu}, g_j = g_0·E^j·e^{−½j²δ²}
  // and R_j = E⁴·e^{−8δ²−4jδ²}, two exps a row; the few products cost a few float64 roundings
  const s2 = step * step;
  const gScale = [1, Math.exp(-0.5 * s2), Math.exp(-2 * s2), Math.exp(-4.5 * s2)];
  const rScale = [0, 1, 2, 3].map((j) => Math.exp(-8 * s2 - 4 * j * s2));
  for (let i = 0; i < n; i++) {
    const lo = windows[2 * i]!;
    const hi = windows[2 * i + 1]!;
    const u = a[i]! - start - lo * step;
    const g0 = Math.exp(cOf(i) - 0.5 * u * u);
    const e = Math.exp(step * u);
    const e2 = e * e;
    const e4 = e2 * e2;
    const row = i * GRID_STATE_FLOATS;
    states[row] = g0;
    states[row + 1] = g0 * e * gScale[1]!;
    states[row + 2] = g0 * e2 * gScale[2]!;
    states[row + 3] = g0 * e2 * e * gScale[3]!;
    states[row + 4] = e4 * rScale[0]!;
    states[row + 5] = e4 * rScale[1]!;
    states[row + 6] = e4 * rScale[2]!;
    states[row + 7] = e4 * rScale[3]!;
    offsets[2 * row + 16] = lo * 4;
    offsets[2 * row + 17] = hi * 4;
  }
  return { states, q: Math.exp(-16 * s2) };
}

/** Per column, the value below which an entry is dropped: flush·e^{colMax}, 0 when flush is 0. */
export function gridFloor(colMax: ArrayLike<number>, flush: number): Float64Array {
  const floor = new Float64Array(colMax.length);
  if (flush > 0) for (let k = 0; k < colMax.length; k++) floor[k] = flush * Math.exp(colMax[k]!);
  return floor;
}

/** The column sums of the shifted kernel, Σ_i e^{z_ik − colMax_k}, from the grid kernel's Σ_i e^{z_ik}. */
export function shiftedColumnSums(sums: ArrayLike<number>, colMax: ArrayLike<number>, out: Float32Array): void {
  for (let k = 0; k < sums.length; k++) out[k] = sums[k]! * Math.exp(-colMax[k]!);
}
