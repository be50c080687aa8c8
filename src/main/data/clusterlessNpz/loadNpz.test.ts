import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { inspectNpzBytes, loadNpz, loadNpzBytes } from './loadNpz';
import { bytesJson, f8, makeNpy, makeNpz, makeZip64Npz, numbersOf, strings, unzipMembers } from '../testing';

const fixturePath = (name: string) => fileURLToPath(new URL(`../../../../test/fixtures/${name}.npz`, import.meta.url));
const FIXTURES = ['kde_ref_tiny_seed42_D2', 'kde_ref_small_seed42_D2', 'kde_ref_medium_seed42_D2', 'kde_ref_small_seed7_D4_fs40'];
const tiny = () => unzipMembers(readFileSync(fixturePath('kde_ref_tiny_seed42_D2')));
const arr = (m: Record<string, Uint8Array>, key: string) => Array.from(numbersOf(m, key).data);

function without(m: Record<string, Uint8Array>, ...keys: (string | RegExp)[]): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(m)) {
    if (!keys.some((p) => (typeof p === 'string' ? p === k : p.test(k)))) out[k] = v;
  }
  return out;
}

async function load(m: Record<string, Uint8Array>): Promise<Dataset> {
  return loadNpzBytes(makeNpz(m), 'variant.npz');
}

describe('fixtures load with values equal to their keys', () => {
  for (const name of FIXTURES) {
    it(name, async () => {
      const d = await loadNpz(fixturePath(name));
      const m = unzipMembers(readFileSync(fixturePath(name)));
      const nE = arr(m, 'n_electrodes')[0]!;
      expect(d.name).toBe(name);
      expect(d.electrodes.length).toBe(nE);
      expect(d.positionDims).toBe(1);
      expect(Array.from(d.positionTime)).toEqual(arr(m, 'position_time'));
      expect(Array.from(d.position)).toEqual(arr(m, 'position'));
      expect(Array.from(d.time)).toEqual(arr(m, 'time'));
      expect(Array.from(d.decodingPosition!)).toEqual(arr(m, 'decoding_position'));
      expect(Array.from(d.placeBinCenters)).toEqual(arr(m, 'interior_place_bin_centers'));
      for (let e = 0; e < nE; e++) {
        const el = d.electrodes[e]!;
        expect(el.name).toBe(`e${e}`);
        expect(Array.from(el.encodingSpikeTimes)).toEqual(arr(m, `spike_times_${e}`));
        expect(Array.from(el.encodingFeatures)).toEqual(arr(m, `spike_waveform_features_${e}`));
        expect(Array.from(el.decodingSpikeTimes)).toEqual(arr(m, `decoding_spike_times_${e}`));
        expect(Array.from(el.decodingFeatures)).toEqual(arr(m, `decoding_spike_waveform_features_${e}`));
        expect(el.nFeatures).toBe(numbersOf(m, `spike_waveform_features_${e}`).shape[1]);
      }
      expect(d.params.positionStd).toEqual(arr(m, 'position_std'));
      expect(d.params.waveformStd).toBe(24);
      expect(d.params.blockSize).toBe(100);
      expect(Array.from(d.expected!.occupancy!)).toEqual(arr(m, 'occupancy'));
      expect(Array.from(d.expected!.meanRates!)).toEqual(arr(m, 'mean_rates'));
      expect(Array.from(d.expected!.summedGroundProcessIntensity!)).toEqual(arr(m, 'summed_ground_process_intensity'));
      expect(Array.from(d.expected!.logLikelihoodNonlocal!)).toEqual(arr(m, 'log_likelihood_nonlocal'));
      expect(Array.from(d.expected!.logLikelihoodLocal!)).toEqual(arr(m, 'log_likelihood_local'));
    });
  }
});

describe('layout variants of the tiny fixture', () => {
  it('stored, deflated and zip64 archives give the same dataset', async () => {
    const m = tiny();
    const a = await loadNpzBytes(makeNpz(m, 0), 'x.npz');
    const b = await loadNpzBytes(makeNpz(m, 6), 'x.npz');
    const c = await loadNpzBytes(makeZip64Npz(m), 'x.npz');
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('decodes the encoding spikes when there are no decoding_* keys', async () => {
    const d = await load(without(tiny(), /^decoding_spike/));
    expect(d.electrodes[1]!.decodingSpikeTimes).toBe(d.electrodes[1]!.encodingSpikeTimes);
    expect(d.notes.join('\n')).toMatch(/encoding spikes are decoded/);
  });

  it('uses decoding_position_time, then position_time, when there is no time', async () => {
    const m = without(tiny(), 'time');
    const d = await load(m);
    expect(Array.from(d.time)).toEqual(arr(m, 'decoding_position_time'));
    expect(d.notes.join('\n')).toMatch(/no 'time' array: decoding rows are the decoding_position_time samples/);
    const d2 = await load(without(m, 'decoding_position_time', 'decoding_position'));
    expect(Array.from(d2.time)).toEqual(arr(m, 'position_time'));
    expect(d2.decodingPosition).toBeUndefined();
  });

  it('builds the grid from params.place_bin_size when the file has none (kde-spec §2.2)', async () => {
    const m = tiny();
    const d = await load(without(m, 'place_bin_centers', 'is_track_interior', 'interior_place_bin_centers', 'place_bin_edges'));
    // params.place_bin_size is 1.0 and position is linspace(0, 100, 100): the reference grid again
    expect(Array.from(d.placeBinCenters)).toEqual(arr(m, 'interior_place_bin_centers'));
    expect(d.notes.join('\n')).toMatch(/built from place_bin_size 1 from params/);
  });

  it('uses place_bin_size 2 when neither grid nor params give one', async () => {
    const d = await load(without(tiny(), 'place_bin_centers', 'is_track_interior', 'interior_place_bin_centers', 'params'));
    expect(d.placeBinCenters.length).toBe(50);
    expect(d.placeBinCenters[0]).toBe(1);
    expect(d.notes.join('\n')).toMatch(/place_bin_size 2 \(default/);
  });

  it('restricts place_bin_centers to is_track_interior', async () => {
    const m = without(tiny(), 'interior_place_bin_centers');
    const mask = Array.from({ length: 100 }, (_, i) => i % 3 !== 0);
    m.is_track_interior = makeNpy({ descr: '|b1', shape: [100], values: mask });
    const d = await load(m);
    expect(Array.from(d.placeBinCenters)).toEqual(arr(m, 'place_bin_centers').filter((_, i) => mask[i]));
  });

  it('reads the concatenated layout into the same electrodes', async () => {
    const m = tiny();
    const perElectrode = await load(m);
    const c = without(m, /^(decoding_)?spike_(times|waveform_features)_\d+$/);
    for (const prefix of ['', 'decoding_']) {
      const times: number[] = [];
      const feats: number[] = [];
      const ends: bigint[] = [];
      for (let e = 0; e < 4; e++) {
        times.push(...arr(m, `${prefix}spike_times_${e}`));
        feats.push(...arr(m, `${prefix}spike_waveform_features_${e}`));
        ends.push(BigInt(times.length));
      }
      c[`${prefix}spike_times`] = f8(times);
      c[`${prefix}spike_times_index`] = makeNpy({ descr: '<i8', shape: [4], values: ends });
      c[`${prefix}spike_waveform_features`] = f8(feats, [times.length, 2]);
    }
    const d = await load(c);
    expect(d.electrodes).toEqual(perElectrode.electrodes);
    expect(d.notes[0]).toMatch(/concatenated layout/);
  });

  it('reads float32, big-endian, Fortran-order arrays and reports I062/I063', async () => {
    const m = tiny();
    const { data, shape } = numbersOf(m, 'spike_waveform_features_2');
    m.spike_waveform_features_2 = makeNpy({ descr: '>f4', shape, values: data, fortran: true });
    m.position_time = makeNpy({ descr: '>f8', shape: [100], values: numbersOf(m, 'position_time').data });
    const r = await inspectNpzBytes(makeNpz(m), 'v.npz');
    expect(r.dataset).not.toBeNull();
    expect(Array.from(r.dataset!.electrodes[2]!.encodingFeatures)).toEqual(Array.from(Float32Array.from(data)));
    expect(Array.from(r.dataset!.positionTime)).toEqual(arr(m, 'position_time'));
    const codes = r.findings.map((f) => `${f.code}:${f.key}`);
    expect(codes).toContain('I062:spike_waveform_features_2');
    expect(codes).toContain('I063:spike_waveform_features_2');
    expect(codes).toContain('I063:position_time');
  });

  it('accepts (T,) and (T, 2) positions', async () => {
    const m = tiny();
    m.position = f8(arr(m, 'position'));
    m.decoding_position = f8(arr(m, 'decoding_position'));
    expect((await load(m)).positionDims).toBe(1);
    const xy = arr(m, 'position').flatMap((x) => [x, 100 - x]);
    const m2 = without(tiny(), 'decoding_position', 'decoding_position_time', 'place_bin_centers', 'is_track_interior');
    m2.position = f8(xy, [100, 2]);
    m2.interior_place_bin_centers = f8([10, 90, 50, 50, 90, 10], [3, 2]);
    m2.position_std = f8([3, 4]);
    const d = await load(m2);
    expect(d.positionDims).toBe(2);
    expect(Array.from(d.position)).toEqual(xy);
    expect(Array.from(d.placeBinCenters)).toEqual([10, 90, 50, 50, 90, 10]);
    expect(d.params.positionStd).toEqual([3, 4]);
  });

  it('names electrodes from electrode_names and takes params from JSON', async () => {
    const m = without(tiny(), 'position_std', 'waveform_std');
    m.electrode_names = strings(['tet01', 'tet02', 'tet07', 'tet12']);
    m.params = bytesJson({ position_std: 5, waveform_std: [20, 30], block_size: 64 });
    const d = await load(m);
    expect(d.electrodes.map((e) => e.name)).toEqual(['tet01', 'tet02', 'tet07', 'tet12']);
    expect(d.params).toEqual({ positionStd: 5, waveformStd: [20, 30], blockSize: 64 });
  });

  it('lets the position_std/waveform_std arrays override params, and defaults the rest', async () => {
    const m = tiny();
    m.params = bytesJson({ position_std: 5, waveform_std: 9 });
    m.waveform_std = makeNpy({ descr: '<f8', shape: [], values: [31] });
    const d = await load(m);
    expect(d.params.waveformStd).toBe(31);
    const bare = await load(without(tiny(), 'params', 'position_std', 'waveform_std'));
    expect(bare.params).toEqual({ positionStd: Math.sqrt(12.5), waveformStd: 24, blockSize: 100 });
  });

  it('skips an all-NaN local likelihood and keeps an empty electrode', async () => {
    const m = tiny();
    m.log_likelihood_local = f8(new Array(50).fill(Number.NaN), [50, 1]);
    m.spike_times_3 = f8([]);
    m.spike_waveform_features_3 = f8([]);
    const r = await inspectNpzBytes(makeNpz(m), 'v.npz');
    expect(r.dataset!.expected!.logLikelihoodLocal).toBeUndefined();
    expect(r.dataset!.expected!.occupancy).toBeDefined();
    expect(r.dataset!.electrodes[3]!.encodingSpikeTimes.length).toBe(0);
    expect(r.dataset!.electrodes[3]!.nFeatures).toBe(2);
    expect(r.findings.find((f) => f.code === 'W029')?.electrode).toBe('e3');
  });
});
