import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './suggest';

describe('did you mean', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('repeats', 'repeats')).toBe(0);
    expect(editDistance('repeat', 'repeats')).toBe(1);
    expect(editDistance('refernece', 'reference')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests only a near name, or the one name a prefix starts', () => {
    const flags = ['repeats', 'runs-dir', 'save-likelihood', 'strategy', 'seed'];
    expect(closest('repeat', flags)).toBe('repeats');
    expect(closest('stratgey', flags)).toBe('strategy');
    expect(closest('save', flags)).toBe('save-likelihood');
    expect(closest('zzzz', flags)).toBeUndefined();
    expect(didYouMean('Runs-Dir', flags, (n) => `--${n}`)).toBe('; did you mean --runs-dir?');
    expect(didYouMean('xyz', flags)).toBe('');
  });
});
