import { describe, expect, it } from 'vitest';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { datasetFingerprint } from './fingerprint';
import { makePreset } from '../presets';

const base = (): Dataset => makePreset('tiny', { seed: 5 });

/** a copy of the dataset with every array copied, so a change to one never reaches the other */
function deepCopy(d: Dataset): Dataset {
  const electrodes: ElectrodeData[] = d.electrodes.map((e) => ({
    ...e,
    encodingSpikeTimes: e.encodingSpikeTimes.slice(), encodingFeatures: e.encodingFeatures.slice(),
    decodingSpikeTimes: e.decodingSpikeTimes.slice(), decodingFeatures: e.decodingFeatures.slice(),
  }));
  return {
    ...d, electrodes, positionTime: d.positionTime.slice(), position: d.position.slice(), time: d.time.slice(),
    placeBinCenters: d.placeBinCenters.slice(), params: { ...d.params }, notes: d.notes.slice(),
  };
}

describe('datasetFingerprint', () => {
  it('is a SHA-256, the same for the same data however it was made or named', () => {
    const fp = datasetFingerprint(base());
    expect(fp).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(datasetFingerprint(base())).toBe(fp);
    expect(datasetFingerprint({ ...deepCopy(base()), name: 'other', source: '/elsewhere/data.npz', notes: [] })).toBe(fp);
  });

  it('ignores the block size and what a file may carry as expected outputs', () => {
    const fp = datasetFingerprint(base());
    const d = deepCopy(base());
    d.params.blockSize = 7;
    d.expected = { occupancy: new Float64Array([1, 2]) };
    expect(datasetFingerprint(d)).toBe(fp);
  });

  it('treats a scalar position width as that width in every dimension', () => {
    const d = deepCopy(base());
    const std = d.params.positionStd as number;
    d.params.positionStd = [std];
    expect(datasetFingerprint(d)).toBe(datasetFingerprint(base()));
  });

  const changes: [string, (d: Dataset) => void][] = [
    ['one spike time', (d) => { d.electrodes[2]!.encodingSpikeTimes[0]! += 1e-9; }],
    ['one decoding mark', (d) => { d.electrodes[0]!.decodingFeatures[1]! *= 1.000001; }],
    ['an electrode name', (d) => { d.electrodes[1]!.name = 'tt1'; }],
    ['the electrode order', (d) => { d.electrodes.reverse(); }],
    ['one position', (d) => { d.position[3]! += 0.5; }],
    ['the time grid', (d) => { d.time[d.time.length - 1]! += 0.01; }],
    ['a bin centre', (d) => { d.placeBinCenters[0]! -= 0.1; }],
    ['the position width', (d) => { d.params.positionStd = 7; }],
    ['the mark width', (d) => { d.params.waveformStd = 23; }],
    ['the mark width as a list', (d) => { d.params.waveformStd = [24, 24]; }],
    ['a training mask', (d) => { d.isTraining = new Uint8Array(d.positionTime.length).fill(1); }],
    ['no decoding positions', (d) => { delete d.decodingPosition; delete d.decodingPositionTime; }],
    ['one electrode fewer', (d) => { d.electrodes.pop(); }],
  ];
  for (const [what, change] of changes) {
    it(`changes with ${what}`, () => {
      const d = deepCopy(base());
      change(d);
      expect(datasetFingerprint(d)).not.toBe(datasetFingerprint(base()));
    });
  }

  it('does not confuse where one field ends and the next begins', () => {
    const a = deepCopy(base());
    const b = deepCopy(base());
    // the same numbers overall, one spike moved from the encoding to the decoding list
    const e = b.electrodes[0]!;
    const moved = e.encodingSpikeTimes[e.encodingSpikeTimes.length - 1]!;
    e.encodingSpikeTimes = e.encodingSpikeTimes.slice(0, -1);
    e.decodingSpikeTimes = Float64Array.from([moved, ...e.decodingSpikeTimes]);
    expect(datasetFingerprint(b)).not.toBe(datasetFingerprint(a));
  });
});
