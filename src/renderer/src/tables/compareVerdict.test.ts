import { describe, expect, it } from 'vitest';
import { compareVerdict } from './compareVerdict';

describe('compareVerdict', () => {
  it('does not call runs measured busy a clean "no regression"', () => {
    expect(compareVerdict({ regressed: false, busy: ['A', 'B'] })).toEqual({ tone: 'warn', title: 'No regression, but A and B were measured on a busy machine' });
    expect(compareVerdict({ regressed: false, busy: ['B'] }).title).toBe('No regression, but B was measured on a busy machine');
  });

  it('keeps regression, inconclusive and a quiet no regression as they were', () => {
    expect(compareVerdict({ regressed: true, busy: ['A'] })).toEqual({ tone: 'bad', title: 'Regression' });
    expect(compareVerdict({ regressed: false, inconclusive: true, busy: ['B'] }).tone).toBe('warn');
    expect(compareVerdict({ regressed: false })).toEqual({ tone: 'good', title: 'No regression' });
  });
});
