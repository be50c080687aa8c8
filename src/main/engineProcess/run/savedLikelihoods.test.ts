import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { savedLikelihoodSize } from './savedLikelihoods';

const config = (extra: Record<string, unknown>) => parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference', 'compensated'], ...extra });

describe('savedLikelihoodSize', () => {
  it('is nothing for a run that saves no likelihood', () => {
    expect(savedLikelihoodSize(config({ saveLikelihood: false }), 500, 500)).toBeUndefined();
  });

  it('counts a float32 .npy per strategy and per engine that computes a likelihood, the local one and the axes', () => {
    const one = 128 + 4 * 500 * 500;
    const plain = savedLikelihoodSize(config({ saveLikelihood: true }), 500, 500)!;
    expect(plain.parts).toMatch(/^2 likelihoods of [\d.]+ KiB each, axes [\d.]+ KiB$/);
    const withMore = savedLikelihoodSize(config({ saveLikelihood: true, local: true, engines: ['numpy', 'nld:decoder'], posterior: { model: 'decoder' } }), 500, 500)!;
    // nld:decoder decodes the posterior whole and leaves no likelihood of its own
    expect(withMore.parts).toMatch(/^3 likelihoods of [\d.]+ KiB each, local [\d.]+ KiB, axes [\d.]+ KiB$/);
    expect(withMore.bytes - plain.bytes).toBe(one + 128 + 4 * 500);
  });
});
