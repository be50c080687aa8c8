import { describe, expect, it } from 'vitest';
import { checkPosteriorParameters } from './posteriorParameters';

const refusal = (v: unknown, model: 'decoder' | 'detector' = 'detector'): string => {
  try {
    checkPosteriorParameters(v, model);
  } catch (e) {
    expect(e).toMatchObject({ code: 'BAD_ARGUMENT' });
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('checkPosteriorParameters', () => {
  it('keeps what was given and leaves the rest to the defaults', () => {
    expect(checkPosteriorParameters(undefined, 'decoder')).toEqual({});
    expect(checkPosteriorParameters({ movementVar: 2.5 }, 'decoder')).toEqual({ movementVar: 2.5 });
    const t = [[0.97, 0.01, 0.01, 0.01], [0.01, 0.97, 0.01, 0.01], [0.01, 0.01, 0.97, 0.01], [0.25, 0.25, 0.25, 0.25]];
    expect(checkPosteriorParameters({ noSpikeRate: 1e-8, discreteTransition: t }, 'detector')).toEqual({ noSpikeRate: 1e-8, discreteTransition: t });
  });

  it('refuses bad values naming the flag, and a matrix of the wrong model or rows that are not probabilities', () => {
    expect(refusal({ movementVar: 0 })).toMatch(/--movement-var: expected a positive number, got 0/);
    expect(refusal({ noSpikeRate: -1 })).toMatch(/--no-spike-rate/);
    expect(refusal({ discreteTransition: [[1]] })).toMatch(/4 × 4 .* detector's state order; got 1 rows/);
    expect(refusal({ discreteTransition: [[0.5, 0.6]] }, 'decoder')).toMatch(/row 0 is \[0\.5,0\.6\]/);
    expect(refusal({ discreteTransition: [[0.5]] }, 'decoder')).toMatch(/row 0 sums to 0\.5/);
    expect(refusal({ movementvar: 3 })).toMatch(/unknown movementvar/);
  });
});
