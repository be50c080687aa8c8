/**
 * The host's half of the grid kernels in kdeKernels.wat ($gridRows): a one-dimensional Gaussian
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
 * Whether every row of samples a keeps the recurrence over the m bins of the grid inside the float64
 * range: no sample some 37 widths from a bin (its e^{z} would underflow), no bins so far apart that
 * a ratio e^{4δ(u − kδ)} overflows, every sample finite.
 */
export function gridRowsFit(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): boolean {
  if (c > MAX_EXPONENT) return false;
  const last = (m - 1) * grid.step;
  const step = Math.abs(grid.step);
  for (let i = 0; i < a.length; i++) {
    const u = a[i]! - grid.start;
    // the lowest exponent of the row is at one end of the grid, the highest at its nearest bin
    const far = Math.max(Math.abs(u), Math.abs(u - last));
    if (!(c - 0.5 * far * far >= -MAX_EXPONENT) || !(4 * step * (far + 4 * step) <= MAX_EXPONENT)) return false;
  }
  return true;
}

/**
 * Whether the grid kernels take n ≥ 1 samples a against the points bt (both float32 values over the
 * kernel width, as the kernels read them): a multiple of 4 points on a uniform grid, every row in
 * range. The kernels decide with the same functions, so a caller can count the work beforehand.
 */
export function gridApplies(a: ArrayLike<number>, bt: ArrayLike<number>, c: number): boolean {
  if (a.length === 0 || bt.length % 4 !== 0) return false;
  const grid = uniformGridOf(bt);
  return grid !== null && gridRowsFit(a, grid, bt.length, c);
}

/**
 * Each sample's row state for $gridRows (8 float64 per sample: g_0 … g_3 = e^{z_0 … z_3}, then
 * R_j = e^{z_{j+4} − z_j} = e^{4δ(u − jδ) − 8δ²}), and the ratios' own factor e^{−16δ²}; or null
 * when a row does not fit (gridRowsFit).
 */
export function gridRowStates(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): { states: Float64Array; q: number } | null {
  return gridRowsFit(a, grid, m, c) ? rowStates(a, grid, (): number => c) : null;
}

/**
 * The position-factor rows' states: each row divided by its maximum, e^{z_k − rowMax}, rowMax the
 * float32 log kernel at the sample's nearest bin (what a pass over the row finds, up to rounding;
 * any shift serves, the weights use the same). Null when a row does not fit (gridRowsFit; the
 * shifted exponents are at most a fraction of a bin's width squared above 0).
 */
export function gridFactorRowStates(a: ArrayLike<number>, grid: UniformGrid, m: number, c: number): { states: Float64Array; q: number; rowMax: Float32Array } | null {
  if (!gridRowsFit(a, grid, m, 0)) return null;
  const rowMax = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const u = a[i]! - grid.start;
    const nearest = Math.min(m - 1, Math.max(0, Math.round(u / grid.step)));
    const d = u - nearest * grid.step;
    rowMax[i] = c - 0.5 * d * d;
  }
  return { ...rowStates(a, grid, (i) => c - rowMax[i]!), rowMax };
}

/** Each row's state as gridRowStates describes it, row i's log-normaliser cOf(i). */
function rowStates(a: ArrayLike<number>, grid: UniformGrid, cOf: (i: number) => number): { states: Float64Array; q: number } {
  const { start, step } = grid;
  const n = a.length;
  const states = new Float64Array(n * 8);
  // z_j = z_0 + jδu − ½j²δ²: with E = e^{δu}, g_j = g_0·E^j·e^{−½j²δ²} and R_j = E⁴·e^{−8δ²−4jδ²},
  // two exps a row; the few products cost a few float64 roundings
  const s2 = step * step;
  const gScale = [1, Math.exp(-0.5 * s2), Math.exp(-2 * s2), Math.exp(-4.5 * s2)];
  const rScale = [0, 1, 2, 3].map((j) => Math.exp(-8 * s2 - 4 * j * s2));
  for (let i = 0; i < n; i++) {
    const u = a[i]! - start;
    const g0 = Math.exp(cOf(i) - 0.5 * u * u);
    const e = Math.exp(step * u);
    const e2 = e * e;
    const e4 = e2 * e2;
    const row = i * 8;
    states[row] = g0;
    states[row + 1] = g0 * e * gScale[1]!;
    states[row + 2] = g0 * e2 * gScale[2]!;
    states[row + 3] = g0 * e2 * e * gScale[3]!;
    for (let j = 0; j < 4; j++) states[row + 4 + j] = e4 * rScale[j]!;
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
