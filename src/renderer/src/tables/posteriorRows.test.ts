import { describe, expect, it } from 'vitest';
import type { PosteriorReport } from '../../../shared/report';
import { posteriorAccuracyRows, posteriorFacts, posteriorFiles } from './posteriorRows';

function posterior(extra: Partial<PosteriorReport> = {}): PosteriorReport {
  return {
    model: 'detector', method: 'structured', states: ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'],
    rows: 1200, nStateBins: 124, nInteriorStateBins: 122, marginalLogLikelihood: -4321.98765, filterMs: 250, smoothMs: 1500,
    denseTransitionBytes: 59_536,
    files: {
      acausal: 'posterior/acausal_posterior.npy', causal: 'posterior/causal_posterior.npy',
      stateProbabilities: 'posterior/acausal_state_probabilities.npy', mapPosition: 'posterior/map_position.npy',
    },
    accuracy: {
      likelihood: { rows: 1100, medianAbsError: 12.5, shareWithin10: 0.41, units: 'cm' },
      posterior: { rows: 1100, medianAbsError: 4.25, shareWithin10: 0.83, units: 'cm' },
    },
    ...extra,
  };
}

describe('the Posterior card', () => {
  it('lists the model, states, bins, times and the log marginal likelihood as report.md does', () => {
    const facts = Object.fromEntries(posteriorFacts(posterior()).map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({
      model: 'detector', 'posterior method': 'structured', states: 'Local, No-Spike, Non-Local Continuous, Non-Local Fragmented',
      rows: '1,200', 'state bins': '122 inside the track, of 124', 'log marginal likelihood': '-4321.988',
      filter: '250 ms', smoother: '1.50 s',
    });
    // NaN reads back from report.json as null, which prints as the other missing values do
    const nan = posteriorFacts(posterior({ marginalLogLikelihood: null as unknown as number }));
    expect(nan.find((f) => f.label === 'log marginal likelihood')!.value).toBe('n/a');
  });

  it('sets the MAP beside the likelihood argmax, and nothing without a true position', () => {
    expect(posteriorAccuracyRows(posterior())).toEqual([
      { by: 'posterior MAP', rows: '1,100', medianError: '4.25 cm', within10: '83.0 %' },
      { by: 'likelihood argmax', rows: '1,100', medianError: '12.5 cm', within10: '41.0 %' },
    ]);
    expect(posteriorAccuracyRows(posterior({ accuracy: undefined }))).toEqual([]);
    expect(posteriorAccuracyRows(posterior({ accuracy: { likelihood: { rows: 3, medianAbsError: 2, shareWithin10: 1 } } }))[0])
      .toEqual({ by: 'posterior MAP', rows: '0', medianError: 'n/a', within10: 'n/a' });
  });

  it('lists the files in the order a lab opens them', () => {
    expect(posteriorFiles(posterior())).toEqual([
      'posterior/acausal_posterior.npy', 'posterior/causal_posterior.npy', 'posterior/acausal_state_probabilities.npy', 'posterior/map_position.npy',
    ]);
  });
});
