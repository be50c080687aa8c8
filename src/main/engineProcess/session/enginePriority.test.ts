import { describe, expect, it } from 'vitest';
import { currentNiceness, lowerPriority, nicenessOf } from './enginePriority';

// Only calls that must leave this thread's priority as it is: lowering it for real is
// test/enginePriority.test.ts, on an engine process of its own.
describe('lowerPriority', () => {
  it('leaves the priority alone when asked for none, for a higher one, or for a value that is no nice value', () => {
    const now = currentNiceness();
    for (const asked of [undefined, now, now - 1, now + 0.5, Number.NaN]) {
      expect(lowerPriority(asked)).toBe(now);
      expect(currentNiceness()).toBe(now);
    }
  });
});

describe('nicenessOf', () => {
  it('names the nice value only when it is not the normal one', () => {
    expect(nicenessOf(0)).toEqual({});
    expect(nicenessOf(10)).toEqual({ niceness: 10 });
  });
});
