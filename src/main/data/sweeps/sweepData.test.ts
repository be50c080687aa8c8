import { describe, expect, it } from 'vitest';
import { nestedSubset } from './sweepData';

describe('nestedSubset', () => {
  it('draws k distinct indices in order, the same each time, a smaller draw inside a larger one', () => {
    const small = nestedSubset(1000, 10, 7);
    const large = nestedSubset(1000, 300, 7);
    expect(new Set(small).size).toBe(10);
    expect([...small]).toEqual([...small].sort((a, b) => a - b));
    expect(nestedSubset(1000, 10, 7)).toEqual(small);
    for (const i of small) expect(large.includes(i)).toBe(true);
    expect(nestedSubset(5, 5, 1)).toEqual(Uint32Array.of(0, 1, 2, 3, 4));
  });
});
