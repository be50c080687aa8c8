import { describe, expect, it } from 'vitest';
import type { PosteriorSummary } from '../../engineProtocol';
import { posteriorColumns } from './posteriorColumns';

const summary = (states: string[], nStateBins: number): PosteriorSummary => ({ model: states.length > 1 ? 'detector' : 'decoder', states, nStateBins } as PosteriorSummary);
const DETECTOR = ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'];

describe('posteriorColumns', () => {
  it('the detector: one column each for Local and No-Spike, then the two non-local states\' bins, which the view adds up', () => {
    const c = posteriorColumns(summary(DETECTOR, 202), 202, 'f.npy');
    expect(c.nBins).toBe(100);
    expect(c.shown).toEqual([{ state: 'Non-Local Continuous', firstColumn: 2 }, { state: 'Non-Local Fragmented', firstColumn: 102 }]);
    expect(c.nonLocalStateIndices).toEqual([2, 3]);
  });

  it('the decoder: one spatial state, every column a bin', () => {
    const c = posteriorColumns(summary(['Continuous'], 88), 88, 'f.npy');
    expect([c.nBins, c.shown, c.nonLocalStateIndices]).toEqual([88, [{ state: 'Continuous', firstColumn: 0 }], []]);
  });

  it('a detector whose Local has a position std: Local spans the grid too, and the view still shows the non-local states', () => {
    const multi = { ...summary(DETECTOR, 301), parameters: { movementVar: 6, noSpikeRate: 1e-10, discreteTransition: [], localPositionStd: 2 } } as PosteriorSummary;
    const c = posteriorColumns(multi, 301, 'f.npy');
    expect(c.nBins).toBe(100);
    expect(c.shown).toEqual([{ state: 'Non-Local Continuous', firstColumn: 101 }, { state: 'Non-Local Fragmented', firstColumn: 201 }]);
    // without the parameter the same width is refused: 301 columns are not 2 + 2 × B
    expect(() => posteriorColumns(summary(DETECTOR, 301), 301, 'f.npy')).toThrow(/do not fit/);
  });

  it('refuses files whose width does not fit the states', () => {
    expect(() => posteriorColumns(summary(DETECTOR, 202), 203, 'f.npy')).toThrow(/203 columns/);
    expect(() => posteriorColumns(summary(DETECTOR, 202), 200, 'f.npy')).toThrow(/do not fit/);
    expect(() => posteriorColumns(summary(['Local', 'No-Spike'], 2), 2, 'f.npy')).toThrow(/do not fit/);
  });
});
