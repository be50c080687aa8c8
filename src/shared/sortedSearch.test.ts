import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sortedSearch';

describe('lowerBound and upperBound', () => {
  const a = Float64Array.from([1, 2, 2, 2, 5, 9]);

  it('find the first element not below, and the first above, a value', () => {
    expect(lowerBound(a, 2)).toBe(1);
    expect(upperBound(a, 2)).toBe(4);
    expect(lowerBound(a, 3)).toBe(4);
    expect(upperBound(a, 3)).toBe(4);
  });

  it('answer the ends for values outside the array and for an empty one', () => {
    expect(lowerBound(a, 0)).toBe(0);
    expect(upperBound(a, 10)).toBe(a.length);
    expect(lowerBound([], 1)).toBe(0);
  });

  it('stay inside the range they are given', () => {
    expect(lowerBound(a, 2, 2, 5)).toBe(2);
    expect(upperBound(a, 9, 0, 4)).toBe(4);
  });

  it('agree with a linear scan on random sorted arrays', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 50; trial++) {
      const xs = Array.from({ length: Math.floor(rand() * 30) }, () => Math.floor(rand() * 10)).sort((p, q) => p - q);
      const x = Math.floor(rand() * 12) - 1;
      expect(lowerBound(xs, x)).toBe(xs.findIndex((v) => v >= x) === -1 ? xs.length : xs.findIndex((v) => v >= x));
      expect(upperBound(xs, x)).toBe(xs.findIndex((v) => v > x) === -1 ? xs.length : xs.findIndex((v) => v > x));
    }
  });
});
