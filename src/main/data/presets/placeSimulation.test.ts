import { describe, expect, it } from 'vitest';
import { truePositionAtRows } from '../../analysis/accuracy';
import { PLACE_PRESET, simulatePlaceDataset, TRACK_CM, type PlaceSimulationOptions } from './placeSimulation';

const SMALL: PlaceSimulationOptions = {
  ...PLACE_PRESET, seed: 3, features: 4, featureScale: 1, electrodes: 4, durationS: 60, totalSpikes: 4000, decodeLastS: 10,
};

describe('simulatePlaceDataset', () => {
  it('is the same for a seed and differs between seeds', () => {
    const a = simulatePlaceDataset('place', SMALL);
    expect(simulatePlaceDataset('place', SMALL)).toEqual(a);
    const b = simulatePlaceDataset('place', { ...SMALL, seed: 4 });
    expect(b.electrodes[0]!.encodingSpikeTimes).not.toEqual(a.electrodes[0]!.encodingSpikeTimes);
    expect(b.decodingPosition).not.toEqual(a.decodingPosition);
  });

  it('fits on the laps before the decoding window and carries the true position at every decoding row', () => {
    const d = simulatePlaceDataset('place', SMALL);
    const split = d.time[0]!;
    expect(d.positionTime[d.positionTime.length - 1]).toBe(split);
    expect(d.decodingPositionTime![0]).toBe(split);
    expect(d.time[d.time.length - 1]! - split).toBeCloseTo(SMALL.decodeLastS, 1);
    expect(d.time[1]! - d.time[0]!).toBeCloseTo(SMALL.rowS, 12);
    let spikes = 0;
    for (const e of d.electrodes) {
      expect(e.nFeatures).toBe(4);
      expect(e.encodingFeatures.length).toBe(4 * e.encodingSpikeTimes.length);
      expect(e.decodingFeatures.length).toBe(4 * e.decodingSpikeTimes.length);
      expect(Math.max(...e.encodingSpikeTimes)).toBeLessThan(split);
      expect(Math.min(...e.decodingSpikeTimes)).toBeGreaterThanOrEqual(split);
      spikes += e.encodingSpikeTimes.length + e.decodingSpikeTimes.length;
    }
    expect(spikes).toBe(SMALL.totalSpikes);
    const truth = truePositionAtRows(d);
    expect(truth.every((x) => x >= 0 && x <= TRACK_CM)).toBe(true);
    // the animal runs: the decoding window covers most of the track
    expect(Math.max(...truth) - Math.min(...truth)).toBeGreaterThan(TRACK_CM / 2);
    expect(d.placeBinCenters.length).toBe(TRACK_CM / SMALL.placeBinSize);
  });

  it('tunes units to place: a unit\'s spikes gather where its field is, not along the whole track', () => {
    const d = simulatePlaceDataset('place', { ...SMALL, features: 1, electrodes: 1, totalSpikes: 3000 });
    const e = d.electrodes[0]!;
    // spikes whose mark is far above the distant-cell threshold crossings (30–60 µV) come from place cells
    const positions: number[] = [];
    let j = 0;
    for (let i = 0; i < e.encodingSpikeTimes.length; i++) {
      const t = e.encodingSpikeTimes[i]!;
      while (j + 1 < d.positionTime.length && d.positionTime[j + 1]! <= t) j++;
      if (e.encodingFeatures[i]! > 100) positions.push(d.position[j]!);
    }
    const histogram = new Array<number>(10).fill(0);
    for (const x of positions) histogram[Math.min(9, Math.floor(x / 20))]!++;
    // uniform firing would put a tenth in each 20 cm; place fields leave some stretches nearly silent
    expect(Math.min(...histogram)).toBeLessThan(positions.length / 40);
  });

  it('scales the marks by featureScale and leaves the times alone', () => {
    const plain = simulatePlaceDataset('place', SMALL).electrodes[1]!;
    const scaled = simulatePlaceDataset('place', { ...SMALL, featureScale: 3 }).electrodes[1]!;
    expect(scaled.decodingSpikeTimes).toEqual(plain.decodingSpikeTimes);
    expect(scaled.encodingFeatures[5]).toBeCloseTo(3 * plain.encodingFeatures[5]!, 9);
  });
});
