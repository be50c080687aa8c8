import { describe, expect, it } from 'vitest';
import { nonLocalPeriods } from './nonLocalPeriods';

const time = (n: number): number[] => Array.from({ length: n }, (_, i) => i * 0.5);
const rows = (ps: number[], threshold = 0.8) => nonLocalPeriods(time(ps.length), ps, threshold).map((p) => [p.startRow, p.endRow]);

describe('nonLocalPeriods', () => {
  it('finds runs of rows above the threshold, with times, duration and peak', () => {
    const periods = nonLocalPeriods(time(8), [0.1, 0.9, 0.95, 0.2, 0.1, 0.85, 0.99, 0.3], 0.8);
    expect(periods).toEqual([
      { startRow: 1, endRow: 3, startS: 0.5, endS: 1.5, durationS: 1, peak: 0.95 },
      { startRow: 5, endRow: 7, startS: 2.5, endS: 3.5, durationS: 1, peak: 0.99 },
    ]);
  });

  it('a decode that starts above the threshold opens with a period at row 0', () => {
    expect(rows([0.9, 0.9, 0.1])).toEqual([[0, 2]]);
  });

  it('one that ends above it closes the period at the last row, the last row one step long', () => {
    const [p] = nonLocalPeriods(time(4), [0.1, 0.1, 0.9, 0.95], 0.8);
    expect(p).toMatchObject({ startRow: 2, endRow: 4, startS: 1, endS: 2, durationS: 1 });
  });

  it('a single row is a period of one row', () => {
    expect(nonLocalPeriods(time(3), [0.1, 0.9, 0.1], 0.8)).toEqual([{ startRow: 1, endRow: 2, startS: 0.5, endS: 1, durationS: 0.5, peak: 0.9 }]);
    expect(nonLocalPeriods([4], [0.9], 0.8)).toEqual([{ startRow: 0, endRow: 1, startS: 4, endS: 4, durationS: 0, peak: 0.9 }]);
  });

  it('a NaN row ends a period and starts none', () => {
    expect(rows([0.9, Number.NaN, 0.9, 0.9, Number.NaN])).toEqual([[0, 1], [2, 4]]);
    expect(rows([Number.NaN, Number.NaN])).toEqual([]);
  });

  it('threshold 0 keeps every row with any probability; threshold 1 finds nothing, float32 overshoot included', () => {
    expect(rows([0.2, 0, 0.01, 1], 0)).toEqual([[0, 1], [2, 4]]);
    expect(rows([1, 1.0000001, 0.99], 1)).toEqual([]);
  });

  it('exactly at the threshold is not above it', () => {
    expect(rows([0.8, 0.81])).toEqual([[1, 2]]);
  });
});
