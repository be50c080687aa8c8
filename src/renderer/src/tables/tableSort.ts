/**
 * Sorting and cell bars for the result tables, whatever their columns: which way a header click
 * sorts, the sorted rows, how long each numeric cell's bar is and which cells are the slowest.
 * Pure; a table keeps its sort state and hands it in.
 */

export type SortDirection = 'ascending' | 'descending';

export interface SortState {
  /** the column's key, as the table names it */
  key: string;
  direction: SortDirection;
}

/** a cell's value for sorting: a number, a text, or null where nothing was measured */
export type SortValue = number | string | null;

/**
 * The sort after a click on a column's header: a new numeric column shows its largest values
 * first (the slowest rows are what a person looks for), a new text column A to Z; a second click
 * on the same column reverses it.
 */
export function nextSort(current: SortState | null, key: string, numeric: boolean): SortState {
  if (current?.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: numeric ? 'descending' : 'ascending' };
}

/** the header's aria-sort: only the sorted column carries one */
export function ariaSortOf(state: SortState | null, key: string): SortDirection | undefined {
  return state?.key === key ? state.direction : undefined;
}

// "e2" before "e10", as people number electrodes
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * A sorted copy. Rows without a value (a failed strategy, an electrode a strategy never timed)
 * go last in either direction; equal values keep the order they came in.
 */
export function sortRows<T>(rows: readonly T[], valueOf: (row: T) => SortValue, direction: SortDirection): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: valueOf(row) }))
    .sort((x, y) => {
      if (x.v === null || y.v === null) return x.v === y.v ? x.i - y.i : x.v === null ? 1 : -1;
      return sign * compareValues(x.v, y.v) || x.i - y.i;
    })
    .map((e) => e.row);
}

/** each value over the column's largest, 0..1, for a bar under the number; 0 where there is none */
export function barFractions(values: readonly (number | null)[]): number[] {
  const max = Math.max(0, ...values.map((v) => (v !== null && Number.isFinite(v) ? v : 0)));
  return values.map((v) => (v !== null && Number.isFinite(v) && v > 0 && max > 0 ? v / max : 0));
}

/**
 * How many rows to single out as the slowest of `n` measured ones: `count`, but always fewer than
 * all of them, since "the slowest" of everything (or of one row) tells nothing.
 */
export function calloutSize(n: number, count: number): number {
  return Math.max(0, Math.min(count, n - 1));
}

/** indices of the slowest measured values, slowest first (ties: the earlier row) */
export function slowestIndices(values: readonly (number | null)[], count: number): number[] {
  const measured = values.map((v, i) => ({ v, i })).filter((e): e is { v: number; i: number } => e.v !== null && Number.isFinite(e.v));
  return measured
    .sort((a, b) => b.v - a.v || a.i - b.i)
    .slice(0, calloutSize(measured.length, count))
    .map((e) => e.i);
}

/** flags the cells of a column that slowestIndices picks, for a stronger colour */
export function slowestMarks(values: readonly (number | null)[], count: number): boolean[] {
  const marks = values.map(() => false);
  for (const i of slowestIndices(values, count)) marks[i] = true;
  return marks;
}
