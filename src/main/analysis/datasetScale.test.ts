import { describe, expect, it } from 'vitest';
import type { PresetInfo } from '../../shared/api';
import { datasetScale } from './datasetScale';
import { dataset } from './testData';

const PRESETS: PresetInfo[] = [
  { name: 'tiny', nElectrodes: 4, nTimeEncoding: 100, nTimeDecoding: 50, meanEncodingSpikes: 20, meanDecodingSpikes: 10, nPositionBins: 100 },
  { name: 'realistic', nElectrodes: 64, nTimeEncoding: 10000, nTimeDecoding: 2000, meanEncodingSpikes: 1000, meanDecodingSpikes: 400, nPositionBins: 2000 },
];

describe('datasetScale', () => {
  it('compares with the largest preset the dataset reaches', () => {
    const s = { ...dataset(), nElectrodes: 32, nEncodingSpikes: 2_000_000, nDecodingSpikes: 100_000, nBins: 100 };
    const r = datasetScale(s, PRESETS);
    expect(r.nearestPreset).toBe('realistic');
    expect(r.spikesRatio).toBeCloseTo(2_000_000 / (64 * 1000), 9);
    expect(r.electrodesRatio).toBe(0.5);
    expect(r.sentence).toMatch(/2,000,000 encoding spikes on 32 electrodes and 100 bins: 31× the encoding spikes, 0\.50× the electrodes and 0\.05× the bins of the 'realistic' preset/);
  });

  it('says when the dataset is smaller than every preset', () => {
    const s = { ...dataset(), nElectrodes: 1, nEncodingSpikes: 10, nDecodingSpikes: 5, nBins: 10 };
    const r = datasetScale(s, PRESETS);
    expect(r.nearestPreset).toBeNull();
    expect(r.sentence).toMatch(/smaller than every preset/);
  });
});
