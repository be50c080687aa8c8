import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { inspectNpzBytes, loadNpzBytes, type NpzInspection } from './loadNpz';
import { f8, makeNpy, makeNpz, unzipMembers } from '../testing';

const fixture = fileURLToPath(new URL('../../../../test/fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const bytes = () => new Uint8Array(readFileSync(fixture));

/** A deterministic generator, so a failing case can be replayed. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** inspect never throws for bad input, and an unusable file has at least one error finding */
async function cleanly(b: Uint8Array): Promise<NpzInspection> {
  const r = await inspectNpzBytes(b, 'fuzz.npz');
  if (!r.dataset) expect(r.findings.some((f) => f.severity === 'error')).toBe(true);
  for (const f of r.findings) expect(f.message.startsWith('fuzz.npz: ')).toBe(true);
  return r;
}

describe('no input crashes or hangs the npz loader', () => {
  it('truncated at 40 points: E090 every time, as findings and as a thrown AppError', async () => {
    const b = bytes();
    for (let k = 0; k < 40; k++) {
      const cut = Math.floor((b.length * k) / 40);
      const r = await cleanly(b.subarray(0, cut));
      expect(r.dataset).toBeNull();
      expect(r.findings.map((f) => f.code)).toContain('E090');
      const e = await loadNpzBytes(b.subarray(0, cut), 'fuzz.npz').catch((x: unknown) => x);
      expect(isAppError(e) && e.code === 'E090').toBe(true);
    }
  });

  it('random byte flips anywhere: a clean result or clean findings, never an exception', async () => {
    const rand = lcg(7);
    for (let trial = 0; trial < 60; trial++) {
      const b = bytes();
      for (let k = 0; k < 4; k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      await cleanly(b);
    }
  });

  it('empty file, random bytes and a bare zip signature are E090', async () => {
    const rand = lcg(3);
    const noise = Uint8Array.from({ length: 5000 }, () => Math.floor(rand() * 256));
    for (const b of [new Uint8Array(0), noise, Uint8Array.of(0x50, 0x4b, 3, 4)]) {
      const r = await cleanly(b);
      expect(r.findings[0]!.code).toBe('E090');
    }
  });

  it('gigantic declared shapes are refused from the header, before any allocation', async () => {
    const m = unzipMembers(bytes());
    m.position_time = makeNpy({ descr: '<f8', shape: [100], values: new Array(100).fill(0), header: "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000000,), }" });
    m.position = makeNpy({ descr: '<f8', shape: [1], values: [0], header: "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }" });
    const before = process.memoryUsage().arrayBuffers;
    const r = await cleanly(makeNpz(m));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    const msgs = r.findings.filter((f) => f.code === 'E090').map((f) => f.message);
    expect(msgs.some((x) => /'position_time' is truncated: shape \(1000000000000000\) needs 8000000000000000 data bytes but only \d+ are present/.test(x))).toBe(true);
    expect(msgs.some((x) => /'position' is truncated/.test(x))).toBe(true);
  });

  it('a zip directory claiming a huge member is refused before inflating', async () => {
    const b = makeNpz({ position_time: f8(new Array(1000).fill(1)) }, 6);
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (let p = b.length - 22; p >= 0; p--) {
      if (view.getUint32(p, true) === 0x02014b50) {
        view.setUint32(p + 24, 0xfffffff0, true);
        break;
      }
    }
    const r = await cleanly(b);
    expect(r.findings.find((f) => f.key === 'position_time')?.message).toMatch(/holds 4294967280 bytes, more than one array may take \(2 GiB\)|more than deflate can produce/);
  });

  it('wrong dtypes, NaN and 0 electrodes give their codes', async () => {
    const base = unzipMembers(bytes());
    const cases: [string, (m: Record<string, Uint8Array>) => void, string][] = [
      ['complex position', (m) => { m.position = makeNpy({ descr: '<f8', shape: [100, 1], values: new Array(100).fill(0), header: "{'descr': '<c16', 'fortran_order': False, 'shape': (100, 1), }" }); }, 'E061'],
      ['structured times', (m) => { m.spike_times_0 = makeNpy({ descr: '<f8', shape: [1], values: [0], header: "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (24,), }" }); }, 'E061'],
      ['object features', (m) => { m.spike_waveform_features_1 = makeNpy({ descr: '<f8', shape: [1], values: [0], header: "{'descr': '|O', 'fortran_order': False, 'shape': (17, 2), }" }); }, 'E060'],
      ['string spike times', (m) => { m.spike_times_2 = makeNpy({ descr: '<U3', shape: [21], values: new Array(21).fill('abc') }); }, 'E061'],
      ['NaN everywhere in position_time', (m) => { m.position_time = f8(new Array(100).fill(Number.NaN)); }, 'E013'],
      ['0 electrodes', (m) => {
        for (const k of Object.keys(m)) if (/spike/.test(k)) delete m[k];
        m.spike_times = f8([]);
        m.spike_times_index = makeNpy({ descr: '<i8', shape: [0], values: [] });
        m.spike_waveform_features = f8([], [0, 2]);
      }, 'E030'],
    ];
    for (const [name, mutate, code] of cases) {
      const m = { ...base };
      mutate(m);
      const r = await cleanly(makeNpz(m));
      expect(r.dataset, name).toBeNull();
      expect(r.findings.map((f) => f.code), name).toContain(code);
    }
  });
});
