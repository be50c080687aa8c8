import { describe, expect, it } from 'vitest';
import { type ElectrodeHealthInput, minEncodingSpikesFor, numericalHealth } from './health';

const electrode = (extra: Partial<ElectrodeHealthInput>): ElectrodeHealthInput => ({
  name: 'e0', nEnc: 200, nDec: 100, floorShare: 0, nonFinite: 0, ...extra,
});

describe('numericalHealth', () => {
  it('counts non-finite values in occupancy, ground process and likelihood', () => {
    const h = numericalHealth({
      occupancy: Float64Array.from([1, NaN, 2]),
      groundProcess: Float64Array.from([Infinity, -Infinity, 0]),
      likelihood: Float64Array.from([NaN, NaN, NaN, 1, 2, 3]),
      electrodes: [],
    });
    expect(h).toMatchObject({ nonFiniteOccupancy: 1, nonFiniteGroundProcess: 2, nonFiniteLikelihood: 3, floorShare: 0 });
  });

  it('weights the overall floor share by spike terms and reports 0 for an electrode without terms', () => {
    const h = numericalHealth({
      occupancy: new Float64Array(10),
      groundProcess: new Float64Array(10),
      likelihood: new Float64Array(0),
      electrodes: [
        electrode({ name: 'a', floorShare: 1, nTerms: 300 }),
        electrode({ name: 'b', floorShare: 0, nTerms: 100 }),
        electrode({ name: 'c', nDec: 0, floorShare: NaN }),
      ],
    });
    expect(h.floorShare).toBeCloseTo(0.75, 15);
    expect(h.electrodes.map((e) => e.floorShare)).toEqual([1, 0, 0]);
  });

  it('weights by nDec · nBins when the engine gives no term count', () => {
    const h = numericalHealth({
      occupancy: new Float64Array(4),
      groundProcess: new Float64Array(4),
      likelihood: new Float64Array(0),
      electrodes: [electrode({ nDec: 3, floorShare: 0.5 }), electrode({ name: 'e1', nDec: 1, floorShare: 1 })],
    });
    // (0.5·12 + 1·4) / 16
    expect(h.floorShare).toBeCloseTo(10 / 16, 15);
  });

  it('flags electrodes below 2·(D + Q) encoding spikes, per electrode dimension', () => {
    expect(minEncodingSpikesFor(2)).toBe(6);
    expect(minEncodingSpikesFor(8, 2)).toBe(20);
    const h = numericalHealth({
      occupancy: new Float64Array(1),
      groundProcess: new Float64Array(1),
      likelihood: new Float64Array(0),
      nFeatures: 2,
      electrodes: [
        electrode({ name: 'five', nEnc: 5 }),
        electrode({ name: 'six', nEnc: 6 }),
        electrode({ name: 'six-at-D4', nEnc: 6, nFeatures: 4 }),
        electrode({ name: 'none', nEnc: 0, nonFinite: 7 }),
      ],
    });
    expect(h.electrodes.map((e) => [e.electrode, e.tooFewEncodingSpikes])).toEqual([
      ['five', true], ['six', false], ['six-at-D4', true], ['none', true],
    ]);
    expect(h.electrodes[3]).toMatchObject({ nEncodingSpikes: 0, nDecodingSpikes: 100, nonFinite: 7 });
  });

  it('takes an explicit threshold over the default', () => {
    const h = numericalHealth({
      occupancy: new Float64Array(1), groundProcess: new Float64Array(1), likelihood: new Float64Array(0),
      minEncodingSpikes: 50,
      electrodes: [electrode({ nEnc: 49 }), electrode({ name: 'e1', nEnc: 50 })],
    });
    expect(h.electrodes.map((e) => e.tooFewEncodingSpikes)).toEqual([true, false]);
  });
});
