import { describe, expect, it } from 'vitest';
import { makePreset, PRESET_INFO } from './presets';
import { logFactorial, Rng } from './rng';

function stats(xs: number[]): { mean: number; variance: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, variance };
}

describe('Rng', () => {
  it('is reproducible for a seed and differs between seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const xa = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(xa);
  });

  it('draws uniforms in [0, 1) with mean 1/2 and variance 1/12', () => {
    const r = new Rng(1);
    const xs = Array.from({ length: 200_000 }, () => r.random());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const s = stats(xs);
    expect(s.mean).toBeCloseTo(0.5, 2);
    expect(s.variance).toBeCloseTo(1 / 12, 3);
  });

  it('draws standard normals', () => {
    const r = new Rng(2);
    const xs = Array.from({ length: 200_000 }, () => r.normal());
    const s = stats(xs);
    expect(Math.abs(s.mean)).toBeLessThan(0.01);
    expect(Math.abs(s.variance - 1)).toBeLessThan(0.02);
    const within1 = xs.filter((x) => Math.abs(x) < 1).length / xs.length;
    expect(Math.abs(within1 - 0.6827)).toBeLessThan(0.005);
  });

  it('draws Poisson counts with mean = variance = λ on both sides of the method switch', () => {
    const r = new Rng(3);
    for (const lambda of [0.5, 4, 9.5, 10, 30, 400, 1000]) {
      const xs = Array.from({ length: 40_000 }, () => r.poisson(lambda));
      const s = stats(xs);
      const se = Math.sqrt(lambda / xs.length);
      expect(Math.abs(s.mean - lambda)).toBeLessThan(5 * se);
      expect(Math.abs(s.variance / lambda - 1)).toBeLessThan(0.05);
      expect(xs.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    }
    // P(X = 0) for λ = 4 is e^-4
    const zeros = Array.from({ length: 100_000 }, () => r.poisson(4)).filter((x) => x === 0).length / 100_000;
    expect(Math.abs(zeros - Math.exp(-4))).toBeLessThan(0.002);
  });

  it('logFactorial agrees with the exact sum past the table', () => {
    let exact = 0;
    for (let k = 1; k <= 300; k++) {
      exact += Math.log(k);
      if (k >= 120) expect(Math.abs(logFactorial(k) - exact)).toBeLessThan(1e-9 * exact);
    }
  });
});

describe('makePreset', () => {
  it('has the sizes of kde-spec §8.1', () => {
    for (const info of PRESET_INFO.slice(0, 3)) {
      const d = makePreset(info.name, { seed: 7 });
      expect(d.source).toBe(`preset:${info.name}`);
      expect(d.positionTime.length).toBe(info.nTimeEncoding);
      expect(d.position.length).toBe(info.nTimeEncoding);
      expect(d.time.length).toBe(info.nTimeDecoding);
      expect(d.decodingPosition!.length).toBe(info.nTimeDecoding);
      expect(d.electrodes.length).toBe(info.nElectrodes);
      expect(d.placeBinCenters.length).toBe(info.nPositionBins);
      expect(d.positionTime[info.nTimeEncoding - 1]).toBe(100);
      expect(d.time[info.nTimeDecoding - 1]).toBe(20);
      expect(d.decodingPosition![info.nTimeDecoding - 1]).toBe(100);
      expect(d.params).toEqual({ positionStd: Math.sqrt(12.5), waveformStd: 24, blockSize: 100, placeBinSize: 100 / info.nPositionBins });
    }
    expect(PRESET_INFO.map((p) => p.name)).toEqual(['tiny', 'small', 'medium', 'large', 'realistic', 'place']);
  });

  it('builds the place-tuned preset with the sizes it lists, the same for a seed, with the true decoding position', () => {
    const info = PRESET_INFO.find((p) => p.name === 'place')!;
    const d = makePreset('place', { seed: 9 });
    expect(d.source).toBe('preset:place');
    expect(d.electrodes.length).toBe(info.nElectrodes);
    expect(d.positionTime.length).toBe(info.nTimeEncoding);
    expect(d.time.length).toBe(info.nTimeDecoding);
    expect(d.placeBinCenters.length).toBe(info.nPositionBins);
    expect(d.electrodes[0]!.nFeatures).toBe(2);
    const mean = (pick: (e: (typeof d.electrodes)[number]) => Float64Array) =>
      d.electrodes.reduce((s, e) => s + pick(e).length, 0) / d.electrodes.length;
    expect(mean((e) => e.encodingSpikeTimes) / info.meanEncodingSpikes).toBeCloseTo(1, 1);
    expect(mean((e) => e.decodingSpikeTimes) / info.meanDecodingSpikes).toBeGreaterThan(0.7);
    expect(d.decodingPositionTime![0]).toBeLessThanOrEqual(d.time[0]!);
    expect(d.decodingPositionTime![d.decodingPositionTime!.length - 1]).toBeGreaterThanOrEqual(d.time[d.time.length - 1]!);
    expect(makePreset('place', { seed: 9 })).toEqual(d);
    expect(makePreset('place', { seed: 9, features: 4 }).electrodes[0]!.nFeatures).toBe(4);
    expect(() => makePreset('place', { features: 0 })).toThrow(/features/);
  });

  it('draws spike counts near the Poisson means, sorted times within the windows', () => {
    const info = PRESET_INFO.find((p) => p.name === 'medium')!;
    let enc = 0;
    let dec = 0;
    const seeds = [1, 2, 3, 4];
    for (const seed of seeds) {
      const d = makePreset('medium', { seed });
      for (const e of d.electrodes) {
        enc += e.encodingSpikeTimes.length;
        dec += e.decodingSpikeTimes.length;
        for (let i = 1; i < e.encodingSpikeTimes.length; i++) expect(e.encodingSpikeTimes[i]!).toBeGreaterThanOrEqual(e.encodingSpikeTimes[i - 1]!);
        expect(Math.min(...e.encodingSpikeTimes)).toBeGreaterThanOrEqual(0);
        expect(Math.max(...e.encodingSpikeTimes)).toBeLessThan(100);
        expect(Math.max(...e.decodingSpikeTimes)).toBeLessThan(20);
      }
    }
    const n = seeds.length * info.nElectrodes;
    // 4 standard errors of a sum of n Poisson(λ) counts
    expect(Math.abs(enc - n * info.meanEncodingSpikes)).toBeLessThan(4 * Math.sqrt(n * info.meanEncodingSpikes));
    expect(Math.abs(dec - n * info.meanDecodingSpikes)).toBeLessThan(4 * Math.sqrt(n * info.meanDecodingSpikes));
  });

  it('is reproducible for a seed and differs between seeds', () => {
    const a = makePreset('small', { seed: 11 });
    const b = makePreset('small', { seed: 11 });
    const c = makePreset('small', { seed: 12 });
    expect(b.electrodes).toEqual(a.electrodes);
    expect(c.electrodes[0]!.encodingSpikeTimes).not.toEqual(a.electrodes[0]!.encodingSpikeTimes);
  });

  it('gives D features per spike scaled by featureScale, without changing the times', () => {
    const plain = makePreset('small', { seed: 5, features: 4 });
    const scaled = makePreset('small', { seed: 5, features: 4, featureScale: 150 });
    const e = plain.electrodes[0]!;
    const s = scaled.electrodes[0]!;
    expect(e.nFeatures).toBe(4);
    expect(e.encodingFeatures.length).toBe(4 * e.encodingSpikeTimes.length);
    expect(e.decodingFeatures.length).toBe(4 * e.decodingSpikeTimes.length);
    expect(s.encodingSpikeTimes).toEqual(e.encodingSpikeTimes);
    for (let i = 0; i < e.encodingFeatures.length; i++) expect(s.encodingFeatures[i]).toBeCloseTo(150 * e.encodingFeatures[i]!, 9);
    const marks = plain.electrodes.flatMap((el) => Array.from(el.encodingFeatures));
    const st = stats(marks);
    expect(Math.abs(st.mean)).toBeLessThan(0.1);
    expect(Math.abs(st.variance - 1)).toBeLessThan(0.15);
  });

  it('rejects a bad feature count or scale', () => {
    expect(() => makePreset('tiny', { features: 0 })).toThrow(/features/);
    expect(() => makePreset('tiny', { featureScale: -1 })).toThrow(/featureScale/);
  });

  it('generates the sizes a sweep asks for, the same for a seed, and keeps the preset as it was without them', () => {
    const plain = makePreset('small', { seed: 3 });
    expect(makePreset('small', { seed: 3, sizes: {} })).toEqual(plain);
    expect(makePreset('small', { seed: 3, sizes: { nElectrodes: undefined } })).toEqual(plain);
    const asked = { nElectrodes: 5, meanEncodingSpikes: 2000, meanDecodingSpikes: 7, nPositionBins: 333 };
    const d = makePreset('small', { seed: 3, sizes: asked });
    expect(makePreset('small', { seed: 3, sizes: asked })).toEqual(d);
    expect(d.electrodes.length).toBe(5);
    expect(d.placeBinCenters.length).toBe(333);
    const enc = d.electrodes.reduce((s, e) => s + e.encodingSpikeTimes.length, 0);
    const dec = d.electrodes.reduce((s, e) => s + e.decodingSpikeTimes.length, 0);
    expect(Math.abs(enc - 5 * 2000)).toBeLessThan(4 * Math.sqrt(5 * 2000));
    expect(Math.abs(dec - 5 * 7)).toBeLessThan(4 * Math.sqrt(5 * 7));
    // what is not asked stays the preset's
    const info = PRESET_INFO.find((p) => p.name === 'small')!;
    expect(d.time.length).toBe(info.nTimeDecoding);
    expect(d.positionTime.length).toBe(info.nTimeEncoding);
    expect(d.params.placeBinSize).toBeCloseTo(100 / 333, 12);
    expect(d.notes.at(-1)).toBe("sizes changed from preset 'small': nElectrodes 5, meanEncodingSpikes 2000, meanDecodingSpikes 7, nPositionBins 333");
    expect(plain.notes.some((n) => n.startsWith('sizes changed'))).toBe(false);
  });

  it('varies the place simulation: encoding spikes by a longer recording, electrodes and bins; not its decoding spikes', () => {
    const info = PRESET_INFO.find((p) => p.name === 'place')!;
    const d = makePreset('place', { seed: 9, sizes: { meanEncodingSpikes: 1600, nElectrodes: 4, nPositionBins: 50 } });
    expect(d.electrodes.length).toBe(4);
    expect(Math.abs(d.placeBinCenters.length - 50)).toBeLessThanOrEqual(1);
    const mean = (pick: (e: (typeof d.electrodes)[number]) => Float64Array) => d.electrodes.reduce((s, e) => s + pick(e).length, 0) / d.electrodes.length;
    expect(mean((e) => e.encodingSpikeTimes) / 1600).toBeCloseTo(1, 1);
    // the decoded window is the same 20 s, so its rows and spikes stay the preset's
    expect(d.time.length).toBe(info.nTimeDecoding);
    expect(mean((e) => e.decodingSpikeTimes) / info.meanDecodingSpikes).toBeGreaterThan(0.7);
    expect(mean((e) => e.decodingSpikeTimes) / info.meanDecodingSpikes).toBeLessThan(1.3);
    expect(() => makePreset('place', { sizes: { meanDecodingSpikes: 50 } })).toThrow(/decoding spikes cannot be set/);
  });

  it('rejects a size that is not a positive integer in range, naming it', () => {
    expect(() => makePreset('tiny', { sizes: { nElectrodes: 0 } })).toThrow(/nElectrodes must be an integer from 1 to 1024, got 0/);
    expect(() => makePreset('tiny', { sizes: { meanEncodingSpikes: 2.5 } })).toThrow(/meanEncodingSpikes/);
    expect(() => makePreset('tiny', { sizes: { nPositionBins: 1 } })).toThrow(/nPositionBins/);
  });
});
