import { describe, expect, it } from 'vitest';
import { parseRunConfig, STRATEGIES } from '../../../shared/config';
import { exampleRunConfig } from '../../../shared/exampleRun';
import { exampleFromHash } from './useExampleRun';

describe('example run', () => {
  it('reads a preset name from the hash query and ignores anything else', () => {
    expect(exampleFromHash('#/live?example=medium')).toBe('medium');
    expect(exampleFromHash('#/live')).toBeNull();
    expect(exampleFromHash('#/live?example=huge')).toBeNull();
    expect(exampleFromHash('#/data?other=1')).toBeNull();
  });

  it('asks for every strategy with likelihoods saved, and passes the service check', () => {
    const config = exampleRunConfig('small');
    expect(parseRunConfig(config)).toEqual(config);
    expect(config.strategies).toEqual([...STRATEGIES]);
    expect(config.saveLikelihood).toBe(true);
  });
});
