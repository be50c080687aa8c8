import { describe, expect, it } from 'vitest';
import { treeRssFromPs } from './processTree';

describe("a process tree's RSS from ps", () => {
  const ps = ['  1     0  100', ' 10     1 1000', ' 11    10  200', ' 12    11   30', ' 13     1 5000', 'garbage line', ''].join('\n');

  it('sums the root and every descendant, and nothing beside them', () => {
    expect(treeRssFromPs(ps, 10)).toBe((1000 + 200 + 30) * 1024);
    expect(treeRssFromPs(ps, 12)).toBe(30 * 1024);
  });

  it('is null for a process that is gone', () => {
    expect(treeRssFromPs(ps, 99)).toBeNull();
  });
});
