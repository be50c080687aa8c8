import { describe, expect, it } from 'vitest';
import { ariaSortOf, barFractions, calloutSize, nextSort, slowestIndices, slowestMarks, sortRows } from './tableSort';

describe('nextSort', () => {
  it('sorts a new numeric column slowest first, a text column A to Z, and reverses on a second click', () => {
    expect(nextSort(null, 'reference', true)).toEqual({ key: 'reference', direction: 'descending' });
    expect(nextSort(null, 'electrode', false)).toEqual({ key: 'electrode', direction: 'ascending' });
    const once = nextSort(null, 'total', true);
    expect(nextSort(once, 'total', true)).toEqual({ key: 'total', direction: 'ascending' });
    expect(nextSort(nextSort(once, 'total', true), 'total', true)).toEqual({ key: 'total', direction: 'descending' });
    expect(nextSort(once, 'encode', true)).toEqual({ key: 'encode', direction: 'descending' });
  });

  it('gives aria-sort to the sorted column only', () => {
    const state = { key: 'total', direction: 'ascending' } as const;
    expect(ariaSortOf(state, 'total')).toBe('ascending');
    expect(ariaSortOf(state, 'encode')).toBeUndefined();
    expect(ariaSortOf(null, 'total')).toBeUndefined();
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'e10', ms: 5 },
    { name: 'e2', ms: null },
    { name: 'e1', ms: 9 },
    { name: 'e3', ms: 5 },
  ];

  it('sorts numbers both ways with unmeasured rows last and ties in their first order', () => {
    expect(sortRows(rows, (r) => r.ms, 'descending').map((r) => r.name)).toEqual(['e1', 'e10', 'e3', 'e2']);
    expect(sortRows(rows, (r) => r.ms, 'ascending').map((r) => r.name)).toEqual(['e10', 'e3', 'e1', 'e2']);
  });

  it('sorts names as people number them (e2 before e10) and leaves the input alone', () => {
    expect(sortRows(rows, (r) => r.name, 'ascending').map((r) => r.name)).toEqual(['e1', 'e2', 'e3', 'e10']);
    expect(sortRows(rows, (r) => r.name, 'descending').map((r) => r.name)).toEqual(['e10', 'e3', 'e2', 'e1']);
    expect(rows[0]!.name).toBe('e10');
  });
});

describe('bars and the slowest cells', () => {
  it('scales each value to the column maximum, 0 where nothing was measured', () => {
    expect(barFractions([10, 5, null, 0])).toEqual([1, 0.5, 0, 0]);
    expect(barFractions([null, null])).toEqual([0, 0]);
    expect(barFractions([Number.NaN, 4])).toEqual([0, 1]);
  });

  it('picks the slowest few, slowest first, never all of them', () => {
    const values = [3, 9, null, 7, 1, 8];
    expect(slowestIndices(values, 3)).toEqual([1, 5, 3]);
    expect(slowestMarks(values, 3)).toEqual([false, true, false, true, false, true]);
    expect(slowestIndices([4, 6], 3)).toEqual([1]);
    expect(slowestIndices([4], 3)).toEqual([]);
    expect(calloutSize(128, 3)).toBe(3);
    expect(calloutSize(0, 3)).toBe(0);
  });

  it('reads a 128-electrode column in one pass without losing rows', () => {
    const values = Array.from({ length: 128 }, (_, i) => (i * 37) % 128);
    const sorted = sortRows(values.map((v, i) => ({ i, v })), (r) => r.v, 'descending');
    expect(sorted).toHaveLength(128);
    expect(sorted[0]!.v).toBe(127);
    expect(slowestIndices(values, 3).map((i) => values[i])).toEqual([127, 126, 125]);
  });
});
