/**
 * Round tick values for an axis whose coordinates are not the values it labels (the likelihood
 * heatmap counts cells): ticks are chosen in data units, 1, 2 or 5 times a power of ten apart,
 * then placed where those values fall among the cells.
 */

/** ascending round values inside [lo, hi], about `target` of them */
export function niceTicks(lo: number, hi: number, target = 8): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) return [lo];
  const raw = (hi - lo) / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out: number[] = [];
  // a tick a rounding error outside the range still belongs to it
  const eps = step * 1e-9;
  for (let k = Math.ceil((lo - eps) / step); k * step <= hi + eps; k++) {
    out.push(Number((k * step).toPrecision(12)));
  }
  return out;
}

export interface CellTicks {
  /** tick positions in cell units (fractional indices) */
  positions: number[];
  /** the label of each position */
  labels: string[];
}

export interface CellTickOptions {
  /** about this many ticks (default 8) */
  target?: number;
  /**
   * Cover each end cell's outer half too (position bins, whose edges are the track's ends);
   * without it ticks stay between the first and last centre (time rows: no tick before the first).
   */
  halfCells?: boolean;
}

/**
 * The decimals that every one of `ticks` reads whole with, so one axis's labels all carry the same
 * (4.30, 4.32, not 4.3 beside 4.32); null when one of them is only written with an exponent.
 */
export function tickDecimals(ticks: readonly number[]): number | null {
  let decimals = 0;
  for (const v of ticks) {
    const text = String(v);
    if (text.includes('e')) return null;
    decimals = Math.max(decimals, text.split('.')[1]?.length ?? 0);
  }
  return decimals;
}

/**
 * Round values over the cells, placed with `indexOf` (fractional index of a value among the
 * centres); `format` is given each value and the decimals the whole axis needs (tickDecimals).
 */
export function cellTicks(
  centers: readonly number[],
  indexOf: (centers: readonly number[], v: number) => number | null,
  format: (v: number, decimals: number | null) => string,
  options: CellTickOptions = {},
): CellTicks {
  const n = centers.length;
  if (n === 0) return { positions: [], labels: [] };
  const first = centers[0]!;
  const last = centers[n - 1]!;
  const half = options.halfCells === true;
  const halfLo = !half ? 0 : n > 1 ? (centers[1]! - first) / 2 : 0.5;
  const halfHi = !half ? 0 : n > 1 ? (last - centers[n - 2]!) / 2 : 0.5;
  const positions: number[] = [];
  const labels: string[] = [];
  const values = niceTicks(first - halfLo, last + halfHi, options.target ?? 8);
  const decimals = tickDecimals(values);
  for (const v of values) {
    const at = indexOf(centers, v);
    if (at === null) continue;
    positions.push(at);
    labels.push(format(v, decimals));
  }
  return { positions, labels };
}
