import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidationFinding } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { inspectNpz, inspectNpzBytes, loadNpz, loadNpzBytes } from '../clusterlessNpz';
import { bytesJson, f8, makeNpy, makeNpz, numbersOf, strings, unzipMembers } from '../testing';
import { ValidationFindings } from './validationFindings';

const fixture = fileURLToPath(new URL('../../../../test/fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const tiny = () => unzipMembers(readFileSync(fixture));
const dir = mkdtempSync(join(tmpdir(), 'kde-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Members = Record<string, Uint8Array>;

function edit(m: Members, key: string, fn: (d: Float64Array) => void, shape?: number[]): Members {
  const { data, shape: s } = numbersOf(m, key);
  fn(data);
  m[key] = f8(data, shape ?? s);
  return m;
}

function drop(m: Members, ...keys: string[]): Members {
  for (const k of keys) delete m[k];
  return m;
}

async function findingsOf(m: Members): Promise<ValidationFinding[]> {
  const r = await inspectNpzBytes(makeNpz(m), 'mut.npz');
  const errors = r.findings.filter((f) => f.severity === 'error');
  expect(r.dataset === null).toBe(errors.length > 0);
  return r.findings;
}

async function only(m: Members, code: string): Promise<ValidationFinding> {
  const all = await findingsOf(m);
  const hit = all.find((f) => f.code === code);
  expect(hit, `expected ${code}, got ${JSON.stringify(all.map((f) => f.code))}`).toBeDefined();
  expect(hit!.message.startsWith('mut.npz: ')).toBe(true);
  return hit!;
}

describe('errors on mutated copies of a fixture', () => {
  it('E001 missing position_time lists the keys found', async () => {
    const f = await only(drop(tiny(), 'position_time'), 'E001');
    expect(f.key).toBe('position_time');
    expect(f.message).toMatch(/Required array 'position_time' not found\. Found: position, decoding_position_time/);
  });

  it('E010 position rows differ from position_time', async () => {
    const f = await only(edit(tiny(), 'position', () => undefined, [50, 2]), 'E010');
    expect(f.message).toMatch(/'position' has 50 rows but 'position_time' has 100 samples/);
  });

  it('E011 position with 3 columns', async () => {
    const m = tiny();
    m.position = f8(new Array(300).fill(1), [100, 3]);
    const f = await only(m, 'E011');
    expect(f.message).toMatch(/\(T,\), \(T, 1\) or \(T, 2\); got \(100, 3\)/);
    expect(f.fix).toBe('use the first 2 columns');
  });

  it('2-D position without a grid: the grid is built as non_local_detector builds it, padding bins and all', async () => {
    const m = drop(tiny(), 'place_bin_centers', 'is_track_interior', 'interior_place_bin_centers', 'decoding_position', 'decoding_position_time');
    m.position = f8(new Array(200).fill(0).map((_, i) => i), [100, 2]);
    const r = await inspectNpzBytes(makeNpz(m), 'mut.npz');
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const grid = r.dataset!.placeGrid!;
    // x and y each span 198 over the fixture's place_bin_size 1: 198 bins an axis, and one padding bin at each end
    expect(grid.shape).toEqual([200, 200]);
    expect(r.dataset!.notes.join('\n')).toMatch(/as non_local_detector builds it: 200 × 200 bins/);
  });

  it("a 2-D file grid: its mask must match its centres (E010) and hold an interior bin (E011), each saying what to do", async () => {
    const twoD = (): Members => {
      const m = drop(tiny(), 'interior_place_bin_centers', 'decoding_position', 'decoding_position_time');
      m.position = f8(new Array(200).fill(0).map((_, i) => i % 17), [100, 2]);
      m.place_bin_centers = f8(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 1 + 2 * Math.floor(i / 6) : 1 + 2 * (Math.floor(i / 2) % 3))), [6, 2]);
      return m;
    };
    const short = twoD();
    short.is_track_interior = f8([1, 1, 1, 1, 1], [5]);
    const mismatch = await only(short, 'E010');
    expect(mismatch.message).toMatch(/'is_track_interior' has 5 entries but 'place_bin_centers' has 6 bins/);
    expect(mismatch.fix).toMatch(/one flag per row of place_bin_centers/);
    const empty = twoD();
    empty.is_track_interior = f8([0, 0, 0, 0, 0, 0], [6]);
    const none = await only(empty, 'E011');
    expect(none.key).toBe('is_track_interior');
    expect(none.fix).toMatch(/leave the grid out so it is built from the positions/);
  });

  it('E012 position_time decreasing and repeating, with counts and first index', async () => {
    const m = edit(tiny(), 'position_time', (d) => {
      [d[10], d[11]] = [d[11]!, d[10]!];
      d[40] = d[39]!;
    });
    const f = await only(m, 'E012');
    expect(f.message).toMatch(/decreases 1 time \(first at index 11: 11\.11111111 → 10\.1010101 s\) and repeats 1 value \(first at index 40/);
    expect(f.index).toBe(11);
  });

  it('E013 NaN in position_time', async () => {
    const f = await only(edit(tiny(), 'position_time', (d) => { d[88] = Number.NaN; }), 'E013');
    expect(f.message).toMatch(/'position_time' contains 1 NaN\/Inf values \(first at index 88/);
    expect(f.index).toBe(88);
  });

  it('E020 unpaired electrode keys, and non-contiguous indices', async () => {
    const f = await only(drop(tiny(), 'spike_waveform_features_3', 'decoding_spike_waveform_features_3', 'decoding_spike_times_3'), 'E020');
    expect(f.message).toMatch(/'spike_times_3' exists but 'spike_waveform_features_3' does not/);
    const all = await findingsOf(drop(tiny(), 'spike_times_1', 'spike_waveform_features_1', 'decoding_spike_times_1', 'decoding_spike_waveform_features_1'));
    expect(all.find((x) => x.code === 'E020')!.message).toMatch(/contiguous 0\.\.3 .*missing 1/);
    const onlyDecoding = await findingsOf(drop(tiny(), 'spike_times_2', 'spike_waveform_features_2'));
    expect(onlyDecoding.filter((x) => x.code === 'E020').map((x) => x.message)).toEqual([
      "mut.npz: 'decoding_spike_times_2' exists but 'spike_times_2' does not.",
    ]);
  });

  it('E021 one feature row dropped', async () => {
    const m = tiny();
    const { data, shape } = numbersOf(m, 'spike_waveform_features_2');
    m.spike_waveform_features_2 = f8(data.slice(0, data.length - 2), [shape[0]! - 1, 2]);
    const f = await only(m, 'E021');
    expect(f.electrode).toBe('e2');
    expect(f.message).toMatch(/Electrode 'e2': 21 encoding spike times \('spike_times_2'\) but the features 'spike_waveform_features_2' have 20 rows/);
  });

  it('E022 one-feature electrode saved as 1-D', async () => {
    const m = tiny();
    m.spike_waveform_features_0 = f8(new Array(24).fill(1));
    const f = await only(m, 'E022');
    expect(f.message).toMatch(/Electrode 'e0': features 'spike_waveform_features_0' must be 2-D .* got \(24,\)\. If there is one feature, reshape to \(n, 1\)/);
  });

  it('E023 zero or too many features', async () => {
    const m = tiny();
    m.spike_waveform_features_1 = f8([], [17, 0]);
    expect((await only(m, 'E023')).message).toMatch(/Electrode 'e1' \('spike_waveform_features_1'\) has 0 features/);
    const m2 = tiny();
    m2.spike_waveform_features_1 = f8(new Array(17 * 65).fill(0).map(Math.random), [17, 65]);
    expect((await only(m2, 'E023')).message).toMatch(/has 65 features; the engine supports 1–64/);
  });

  it('E025 NaN feature names spike and time', async () => {
    const f = await only(edit(tiny(), 'spike_waveform_features_2', (d) => { d[11] = Number.NaN; }), 'E025');
    expect(f.message).toMatch(/Electrode 'e2': 1 encoding spikes have NaN\/Inf features in 'spike_waveform_features_2' \(first: spike 5 at t = /);
    expect(f.index).toBe(5);
  });

  it('E026 NaN spike time', async () => {
    const f = await only(edit(tiny(), 'decoding_spike_times_1', (d) => { d[3] = Number.NaN; }), 'E026');
    expect(f.electrode).toBe('e1');
    expect(f.key).toBe('decoding_spike_times_1');
    expect(f.message).toMatch(/1 decoding spike times in 'decoding_spike_times_1' are NaN \(first at index 3\)/);
  });

  it('E027 shuffled spike times give the first inversion', async () => {
    const m = tiny();
    const t = numbersOf(m, 'spike_times_0').data;
    const f = await only(edit(m, 'spike_times_0', (d) => { [d[5], d[6]] = [d[6]!, d[5]!]; }), 'E027');
    expect(f.index).toBe(6);
    expect(f.message).toContain(`first at index 6: ${Number(t[6]!.toPrecision(10))} > ${Number(t[5]!.toPrecision(10))} s`);
    expect(f.fix).toBe('sort spikes and features together');
  });

  it('E030 no spike data', async () => {
    const f = await only(drop(tiny(), ...Object.keys(tiny()).filter((k) => /spike_(times|waveform)/.test(k))), 'E030');
    expect(f.message).toMatch(/No spike data found/);
  });

  it('E032 spikes on another clock', async () => {
    const m = tiny();
    for (let e = 0; e < 4; e++) edit(m, `spike_times_${e}`, (d) => { for (let i = 0; i < d.length; i++) d[i] = d[i]! + 1.6e9; });
    expect((await only(m, 'E032')).message).toMatch(/do not overlap/);
  });

  it('E043 float32 epoch times', async () => {
    const m = tiny();
    m.position_time = makeNpy({ descr: '<f4', shape: [100], values: Array.from({ length: 100 }, (_, i) => 1.6e9 + 60 * i) });
    expect((await only(m, 'E043')).message).toMatch(/'position_time' is float32 with values up to .* Re-export times as float64/);
  });

  it('E050 decoding time with a zero step', async () => {
    const f = await only(edit(tiny(), 'time', (d) => { d[17] = d[16]!; }), 'E050');
    expect(f.message).toMatch(/'time' must be strictly increasing; step 0 at index 17/);
  });

  it('E060 object array', async () => {
    const m = tiny();
    m.spike_times_2 = makeNpy({ descr: '|O', shape: [2], values: [], header: "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }" });
    const f = await only(m, 'E060');
    expect(f.key).toBe('spike_times_2');
    expect(f.message).toMatch(/mut\.npz: 'spike_times_2' is a NumPy object array/);
  });

  it('E061 complex and string dtypes', async () => {
    const m = tiny();
    m.position = makeNpy({ descr: '<c16', shape: [0], values: [], header: "{'descr': '<c16', 'fortran_order': False, 'shape': (100, 1), }" });
    expect((await only(m, 'E061')).message).toMatch(/'position' has dtype complex128; expected float32\/float64/);
    const m2 = tiny();
    m2.spike_times_0 = strings(['a', 'b']);
    expect((await only(m2, 'E061')).key).toBe('spike_times_0');
  });

  it('E064 mixed layouts', async () => {
    const m = tiny();
    m.spike_times = f8([1, 2]);
    m.spike_times_index = makeNpy({ descr: '<i8', shape: [1], values: [2n] });
    m.spike_waveform_features = f8([1, 2], [2, 1]);
    expect((await only(m, 'E064')).message).toMatch(/both spike_times_<e> keys .* and a concatenated spike_times/);
  });

  it('E065 index whose last value is not len(spike_times), or decreasing', async () => {
    const base = () => {
      const m: Members = {};
      for (const k of ['position_time', 'position', 'time', 'params', 'interior_place_bin_centers']) m[k] = tiny()[k]!;
      m.spike_times = f8([1, 2, 3, 4, 5]);
      m.spike_waveform_features = f8([1, 2, 3, 4, 5], [5, 1]);
      return m;
    };
    const m = base();
    m.spike_times_index = makeNpy({ descr: '<i8', shape: [2], values: [2n, 4n] });
    expect((await only(m, 'E065')).message).toMatch(/last value equal to len\(spike_times\) \(5\); got 4/);
    const m2 = base();
    m2.spike_times_index = makeNpy({ descr: '<i8', shape: [3], values: [3n, 2n, 5n] });
    const f = await only(m2, 'E065');
    expect(f.index).toBe(1);
    const m3 = base();
    m3.spike_times_index = makeNpy({ descr: '<i8', shape: [2], values: [2n, 5n] });
    const d = await loadNpzBytes(makeNpz(m3), 'ok.npz');
    expect(d.electrodes.map((e) => Array.from(e.encodingSpikeTimes))).toEqual([[1, 2], [3, 4, 5]]);
  });

  it('E090 truncated and empty files, through the path API', async () => {
    const bytes = readFileSync(fixture);
    const cut = join(dir, 'cut.npz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    const r = await inspectNpz(cut);
    expect(r.dataset).toBeNull();
    expect(r.findings.map((f) => f.code)).toEqual(['E090']);
    expect(r.findings[0]!.message).toMatch(/^cut\.npz: /);
    const empty = join(dir, 'empty.npz');
    writeFileSync(empty, new Uint8Array(0));
    await expect(loadNpz(empty)).rejects.toMatchObject({ code: 'E090' });
  });

  it('BAD_ARGUMENT for unreadable params JSON', async () => {
    const m = tiny();
    m.params = makeNpy({ descr: '|u1', shape: [3], values: [123, 34, 120] });
    expect((await only(m, 'BAD_ARGUMENT')).message).toMatch(/'params' is not valid JSON/);
  });
});

describe('warnings and notes do not block the load', () => {
  async function loaded(m: Members, code: string): Promise<ValidationFinding> {
    const r = await inspectNpzBytes(makeNpz(m), 'mut.npz');
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.dataset).not.toBeNull();
    const hit = r.findings.find((f) => f.code === code);
    expect(hit, `expected ${code}`).toBeDefined();
    return hit!;
  }

  it('W014 NaN positions with count and percent, kept as NaN', async () => {
    const m = edit(tiny(), 'position', (d) => { d[3] = Number.NaN; d[4] = Number.NaN; });
    const f = await loaded(m, 'W014');
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/2 'position' samples \(2\.0 %\) are NaN/);
    const d = await loadNpzBytes(makeNpz(m), 'mut.npz');
    expect(Number.isNaN(d.position[3]!)).toBe(true);
    expect(d.position.length).toBe(100);
  });

  it('W028 duplicate spike times', async () => {
    const f = await loaded(edit(tiny(), 'spike_times_2', (d) => { d[4] = d[3]!; }), 'W028');
    expect(f.message).toMatch(/Electrode 'e2': 1 duplicate encoding spike times in 'spike_times_2' \(first at index 4/);
  });

  it('W029 empty electrode', async () => {
    const m = tiny();
    m.spike_times_1 = f8([]);
    m.spike_waveform_features_1 = f8([], [0, 2]);
    expect((await loaded(m, 'W029')).message).toMatch(/Electrode 'e1' has no encoding spikes/);
  });

  it('W031 spikes outside the position time range, not filtered', async () => {
    const m = edit(tiny(), 'spike_times_0', (d) => { d[d.length - 1] = 150; });
    const f = await loaded(m, 'W031');
    expect(f.message).toMatch(/Electrode 'e0': 1 of 24 spikes in 'spike_times_0' \(4\.2 %\) fall outside the position time range \[0, 100\] s/);
    expect((await loadNpzBytes(makeNpz(m), 'x.npz')).electrodes[0]!.encodingSpikeTimes.length).toBe(24);
  });

  it('W033 constant feature column names the feature', async () => {
    const m = edit(tiny(), 'spike_waveform_features_3', (d) => { for (let i = 1; i < d.length; i += 2) d[i] = 0; });
    m.feature_names = strings(['amp_ch0', 'amp_ch1']);
    const f = await loaded(m, 'W033');
    expect(f.message).toMatch(/Electrode 'e3', feature 1 \('amp_ch1'\) of 'spike_waveform_features_3' is constant \(all 0\)/);
  });
});

describe('loadNpz errors', () => {
  it('throws the first error with its location and counts the rest', async () => {
    const m = edit(tiny(), 'spike_times_0', (d) => { [d[5], d[6]] = [d[6]!, d[5]!]; });
    edit(m, 'spike_times_2', (d) => { d[0] = Number.NaN; });
    m.params = bytesJson({ block_size: 100 });
    try {
      await loadNpzBytes(makeNpz(m), 'two.npz');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      const err = e as AppError;
      expect(err.code).toBe('E027');
      // the other problem is listed, code, key and words, so one load shows them all
      expect(err.message).toMatch(/^two\.npz: Electrode 'e0'.*\(and 1 more problem: E\d{3} at spike_times_2: .*e2.*\)$/);
      expect(err.location).toMatchObject({ file: 'two.npz', key: 'spike_times_0', electrode: 'e0', index: 6 });
    }
  });

  it('reports every problem, not just the first', async () => {
    const m = drop(tiny(), 'spike_waveform_features_3');
    edit(m, 'time', (d) => { d[2] = d[1]!; });
    edit(m, 'spike_waveform_features_0', (d) => { d[0] = Number.POSITIVE_INFINITY; });
    const codes = (await findingsOf(m)).filter((f) => f.severity === 'error').map((f) => f.code).sort();
    expect(codes).toEqual(['E020', 'E025', 'E050']);
  });
});

describe('a load with many problems', () => {
  it('lists the first few after the first and counts the rest, each cut short', () => {
    const findings = new ValidationFindings('many.npz');
    for (let i = 0; i < 9; i++) findings.error('E027', `problem ${i} ${'x'.repeat(i === 1 ? 400 : 0)}`, { key: `spike_times_${i}` });
    const message = findings.toAppError()!.message;
    expect(message).toMatch(/^many\.npz: problem 0 +\(and 8 more problems: E027 at spike_times_1: problem 1 x+…; E027 at spike_times_2: problem 2 ; .*E027 at spike_times_5: problem 5 ; 3 more not listed\)$/);
    expect(message.length).toBeLessThan(1200);
  });
});
