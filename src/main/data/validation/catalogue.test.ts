import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ValidationFinding } from '../../../shared/api';
import { inspectNpzBytes, type NpzInspection } from '../clusterlessNpz';
import { f8, makeNpy, makeNpz, numbersOf, strings, unzipMembers } from '../testing';

type Members = Record<string, Uint8Array>;
const fixture = (name: string) => fileURLToPath(new URL(`../../../../test/fixtures/${name}`, import.meta.url));
const tiny = (): Members => unzipMembers(readFileSync(fixture('kde_ref_tiny_seed42_D2.npz')));
const nld = (): Members => unzipMembers(readFileSync(fixture('nld_clusterless_decoder_inputs.npz')));

function edit(m: Members, key: string, fn: (d: Float64Array) => Float64Array | void, descr = '<f8'): Members {
  const { data, shape } = numbersOf(m, key);
  const out = fn(data) ?? data;
  m[key] = makeNpy({ descr, shape, values: out });
  return m;
}

const TIME_KEYS = (m: Members) => Object.keys(m).filter((k) => /(^|_)time(s_\d+)?$/.test(k) || /spike_times_\d+$/.test(k));

async function inspect(m: Members, level: 0 | 6 = 0): Promise<NpzInspection> {
  return inspectNpzBytes(makeNpz(m, level), 'mut.npz');
}

async function finding(m: Members, code: string): Promise<ValidationFinding> {
  const r = await inspect(m);
  const hit = r.findings.find((f) => f.code === code);
  expect(hit, `expected ${code}, got ${JSON.stringify(r.findings.map((f) => f.code))}`).toBeDefined();
  expect(hit!.message.startsWith('mut.npz: ')).toBe(true);
  return hit!;
}

describe('feature rules', () => {
  it('W024 feature counts that differ between electrodes', async () => {
    const m = tiny();
    for (const k of ['spike_waveform_features_1', 'decoding_spike_waveform_features_1']) {
      const { data, shape } = numbersOf(m, k);
      m[k] = f8(data.filter((_, i) => i % 2 === 0), [shape[0]!, 1]);
    }
    const f = await finding(m, 'W024');
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/Feature counts differ between electrodes: e0, e2, e3 = 2; e1 = 1\. Decoding treats each electrode independently/);
  });

  it('W034 marks in volts, and marks as raw ADC counts', async () => {
    const m = tiny();
    edit(m, 'spike_waveform_features_2', (d) => d.map((v) => v * 1e-4));
    edit(m, 'spike_waveform_features_3', (d) => d.map((v) => Math.round(v * 3000)));
    const r = await inspect(m);
    const w = r.findings.filter((f) => f.code === 'W034');
    expect(w.map((f) => [f.electrode, f.fix])).toEqual([['e2', '×1e6'], ['e3', '× µV per bit']]);
    expect(w[0]!.message).toMatch(/Features on 'e2' look like volts \(max abs value 0\.000\d+\)\. The default mark bandwidth assumes µV\./);
    expect(w[1]!.message).toMatch(/look like raw ADC counts \(integers up to \d{4}\)/);
    expect(r.dataset).not.toBeNull();
  });
});

describe('time unit rules', () => {
  it('W040 sample counts, beside the W031 they cause (spikes outside the position range)', async () => {
    const m = edit(tiny(), 'spike_times_0', (d) => d.map((t) => Math.round(t * 30000)));
    const r = await inspect(m);
    const w = r.findings.find((f) => f.code === 'W040')!;
    expect(w.message).toMatch(/'spike_times_0' holds only integers \(24 values\) up to \d+; these look like sample counts, not seconds/);
    expect(w.electrode).toBe('e0');
    expect(r.findings.some((f) => f.code === 'W031')).toBe(true);
  });

  it('W041 position clock in milliseconds and in a 96 kHz timebase', async () => {
    const ms = await finding(edit(nld(), 'position_time', (d) => d.map((t) => t * 1000)), 'W041');
    expect(ms.message).toMatch(/'position_time' has a median step of 2, which is a 500 Hz position clock in milliseconds/);
    expect(ms.fix).toBe('÷1000');
    const axona = await finding(edit(nld(), 'position_time', (d) => d.map((t) => Math.round(t * 96000))), 'W041');
    expect(axona.message).toMatch(/a 500 Hz position clock in a 96 kHz timebase \(as Axona writes\)/);
    expect(axona.fix).toBe('÷96000');
  });

  it('I042 epoch seconds are reported and shifted to start at the first position sample', async () => {
    const m = tiny();
    for (const k of TIME_KEYS(m)) edit(m, k, (d) => d.map((t) => t + 1625935714.636));
    const r = await inspect(m);
    const i = r.findings.find((f) => f.code === 'I042')!;
    expect(i.message).toMatch(/Times look like Unix-epoch seconds \(≈1\.63e\+9, 2021-07-10\)\. They are kept as float64; t0 = 1625935714\.636 \(the first position_time sample\) is subtracted internally\./);
    const ds = r.dataset!;
    expect(ds.positionTime[0]).toBe(0);
    const ref = numbersOf(tiny(), 'spike_times_1').data;
    ds.electrodes[1]!.encodingSpikeTimes.forEach((t, k) => expect(Math.abs(t - ref[k]!)).toBeLessThan(1e-6));
    expect(ds.electrodes[1]!.decodingSpikeTimes).not.toBe(ds.electrodes[1]!.encodingSpikeTimes);
    expect(ds.notes.at(-1)).toBe('epoch clock: t0 = 1625935714.636 s subtracted from every time');
  });

  it('E043 is a warning when float32 resolves 0.1–1 ms, an error above', async () => {
    const warn = await finding(edit(tiny(), 'spike_times_2', (d) => d.map((t) => t * 100), '<f4'), 'E043');
    expect(warn.severity).toBe('warning');
    expect(warn.message).toMatch(/'spike_times_2' is float32 with values up to \d+\.?\d* s; float32 resolves only ~0\.000\d+ s there \(between 0\.1 and 1 ms\)/);
    const err = await finding(edit(tiny(), 'spike_times_2', (d) => d.map((t) => t * 1000), '<f4'), 'E043');
    expect(err.severity).toBe('error');
  });
});

describe('decoding bin rules', () => {
  it('W051 irregular bins, with the range and CV', async () => {
    const f = await finding(edit(tiny(), 'time', (d) => d.map((t, i) => t + (i % 2) * 0.1)), 'W051');
    expect(f.message).toMatch(/Decoding bin widths \('time'\) range from 308\.16\d* to 508\.16\d* ms \(CV 2\d %\)/);
  });

  it('W052 bins outside the data, with count, share and first index', async () => {
    const f = await finding(edit(tiny(), 'time', (d) => d.map((t, i) => (i >= 45 ? 200 + i : t))), 'W052');
    expect(f.message).toMatch(/5 decoding bins \(10\.0 %\) in 'time' lie outside the position\/spike coverage \[0, 20\] s \(first at index 45: 245 s\)/);
    expect(f.index).toBe(45);
  });

  it('W053 unusual median bin width, and none for 2 ms bins', async () => {
    const f = await finding(tiny(), 'W053');
    expect(f.message).toMatch(/Median decoding bin \('time'\) is 408\.1632653 ms \(> 50 ms\); is the unit right\?/);
    expect((await inspect(nld())).findings.some((x) => x.code === 'W053')).toBe(false);
  });

  it('time_bin_edges as the grid, and E050 when both are given', async () => {
    const m = tiny();
    m.time_bin_edges = m.time!;
    delete m.time;
    const r = await inspect(m);
    expect(r.dataset!.time).toEqual(numbersOf(tiny(), 'time').data);
    expect(r.dataset!.notes.join('\n')).toMatch(/decoding rows are the 50 time_bin_edges: rows 0\.\.48 are its 49 bins/);
    const both = tiny();
    both.time_bin_edges = both.time!;
    const f = await finding(both, 'E050');
    expect(f.message).toMatch(/both 'time' and 'time_bin_edges' are given; give one/);
  });
});

describe('position and layout rules', () => {
  it('W015 a track graph with 1-D position', async () => {
    const m = tiny();
    m.track_graph_edges = makeNpy({ descr: '<i8', shape: [1, 2], values: [0, 1] });
    const f = await finding(m, 'W015');
    expect(f.message).toMatch(/A track graph is defined \('track_graph_edges'\) but position is 1-D\. Linearised input cannot be re-linearised; supply raw \(x, y\)\./);
  });

  it('W070 jumps between consecutive samples', async () => {
    const f = await finding(edit(tiny(), 'position', (d) => { d[50] = d[50]! + 80; }), 'W070');
    expect(f.message).toMatch(/2 position jumps in 'position' above 50 cm between consecutive samples \(first at index 50; max 81\.\d+ cm in 1010\.\d+ ms\); probably tracking errors\./);
    expect(f.index).toBe(50);
  });

  it('W071 gaps in the real sargolini trajectory (60 dropped samples, 8 gaps over 5× the median)', async () => {
    const s = unzipMembers(readFileSync(fixture('sargolini_trajectory.npz')));
    const m = tiny();
    const t = numbersOf(s, 't');
    m.position_time = s.t!;
    m.position = f8(numbersOf(s, 'pos').data.map((v) => v * 100), [t.shape[0]!, 2]);
    m.position_units = strings(['cm']);
    m.interior_place_bin_centers = f8([10, 10, 50, 50, 90, 90], [3, 2]);
    for (const k of ['place_bin_centers', 'is_track_interior', 'decoding_position', 'decoding_position_time', 'time', 'position_std']) delete m[k];
    for (const k of Object.keys(m).filter((x) => /spike_times_\d+$/.test(x))) edit(m, k, (d) => d.map((v) => v * 5 + 1));
    const r = await inspect(m);
    const f = r.findings.find((x) => x.code === 'W071')!;
    expect(f.message).toMatch(/'position_time' has 8 gaps longer than 5× the median step of 0\.02 s \(first at index \d+, max 0\.36 s\); 60 steps in all exceed 1\.5× the median \(dropped samples\)\./);
    expect(r.findings.some((x) => x.code === 'W070')).toBe(false);
    expect(r.findings.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('W066 legacy dense multiunits converted in streaming mode (stored and deflated)', async () => {
    const T = 40;
    const time = Array.from({ length: T }, (_, i) => i * 0.5);
    const dense = new Array<number>(T * 2 * 3).fill(Number.NaN);
    const spikes: Record<number, number[]> = { 0: [1, 5, 9], 1: [], 2: [3, 4, 30] };
    for (const [e, rows] of Object.entries(spikes)) for (const t of rows) for (let j = 0; j < 2; j++) dense[(t * 2 + j) * 3 + Number(e)] = 10 * t + j + Number(e);
    const m: Members = {
      position_time: f8(time), position: f8(time.map((t) => t * 2), [T, 1]), time: f8(time),
      multiunits: makeNpy({ descr: '<f4', shape: [T, 2, 3], values: dense }),
    };
    for (const level of [0, 6] as const) {
      const r = await inspect(m, level);
      expect(r.findings.find((f) => f.code === 'W066')?.message).toMatch(/multiunits is 40 × 2 × 3 \(1\.88 KiB as float64\); converting in streaming mode/);
      const ds = r.dataset!;
      expect(ds.electrodes.map((e) => Array.from(e.encodingSpikeTimes))).toEqual([[0.5, 2.5, 4.5], [], [1.5, 2, 15]]);
      expect(Array.from(ds.electrodes[2]!.encodingFeatures)).toEqual([32, 33, 42, 43, 302, 303]);
      expect(r.findings.find((f) => f.code === 'W029')?.electrode).toBe('e1');
    }
    m.spike_times_0 = f8([1]);
    expect((await finding(m, 'E064')).message).toMatch(/legacy dense 'multiunits' and spike keys \(spike_times_0\)/);
  });

  it('is_training becomes the encoding mask; a wrong length is E010', async () => {
    const m = tiny();
    m.is_training = makeNpy({ descr: '|b1', shape: [100], values: Array.from({ length: 100 }, (_, i) => i < 70) });
    const r = await inspect(m);
    expect(r.dataset!.isTraining!.reduce((s, v) => s + v, 0)).toBe(70);
    m.is_training = makeNpy({ descr: '|b1', shape: [99], values: new Array(99).fill(true) });
    expect((await finding(m, 'E010')).message).toMatch(/'is_training' has shape \(99,\) but 'position_time' has 100 samples/);
  });

  it('I080 memory estimate on every load', async () => {
    const f = await finding(tiny(), 'I080');
    expect(f.severity).toBe('info');
    expect(f.message).toMatch(/4 electrodes, 114 spikes, F = 2, 100 position samples, 50 decoding bins → ~[\d.]+ KiB in memory/);
  });
});

describe('the bundled sargolini trajectory as it is', () => {
  it('names what is missing and what its t/pos arrays should be called', async () => {
    const r = await inspectNpzBytes(readFileSync(fixture('sargolini_trajectory.npz')), 'sargolini_trajectory.npz');
    expect(r.findings.map((f) => f.code)).toEqual(['E001', 'E001', 'E030']);
    expect(r.findings[0]!.message).toMatch(/Required array 'position_time' not found\. Found: t, pos\. 't' looks like it; save it as 'position_time'\./);
    expect(r.findings[1]!.message).toMatch(/'pos' looks like it; save it as 'position'\./);
  });
});
