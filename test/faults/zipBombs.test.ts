/**
 * Fault: npz files whose zip directory or .npy headers promise what their bytes do not hold. An
 * overlapping-entry zip bomb (23 directory records over one deflated member: a 262 KB file read as
 * 6 GB), a member whose deflate stream runs on past its declared size, a directory declaring a member
 * far larger than the array its header describes, a string array of tens of megabytes from a few KB,
 * a directory naming a member its local header does not. Each is refused with an error naming the
 * file and the member, within a second and without inflating more than a piece of the member. A tiny
 * member declaring a huge shape and an electrode numbered 10^15 were already refused; they stay here
 * so that the reader's new paths keep refusing them.
 */
import { describe, expect, it } from 'vitest';
import { inspectNpzBytes, openNpzBytes } from '../../src/main/data';
import { deflatedMember, hostileZip, zeroNpy } from './hostileZip';

const QUICKLY_MS = 2_000;
/** what one refusal may add to the process's peak memory: a piece of inflated output, not the member */
const BOUNDED_MIB = 48;

/** Runs `attempt`, expecting it to be refused; returns the message, the time it took and the peak RSS growth. */
async function refused(attempt: () => Promise<unknown>): Promise<{ message: string; ms: number; grewMiB: number }> {
  const peakBefore = process.resourceUsage().maxRSS;
  const t0 = performance.now();
  const message = await attempt().then(() => 'accepted', (e: Error) => e.message);
  const ms = performance.now() - t0;
  const grewMiB = (process.resourceUsage().maxRSS - peakBefore) / 1024;
  console.info(`refused in ${ms.toFixed(1)} ms, peak RSS +${grewMiB.toFixed(1)} MiB: ${message}`);
  return { message, ms, grewMiB };
}

/** Opens the archive and reads every array it lists, as an inspection does. */
async function readAll(bytes: Uint8Array, name: string): Promise<void> {
  const npz = await openNpzBytes(bytes, name);
  try {
    for (const key of npz.keys) await npz.read(key);
  } finally {
    await npz.close();
  }
}

function expectBounded(r: { ms: number; grewMiB: number }): void {
  expect(r.ms).toBeLessThan(QUICKLY_MS);
  expect(r.grewMiB).toBeLessThan(BOUNDED_MIB);
}

describe('fault: zip directories and npy headers that promise too much', () => {
  it('refuses an overlapping-entry zip bomb from its directory, before inflating anything', async () => {
    const { bytes } = zeroNpy('<f8', [4 << 20]); // 32 MiB of zeros, 32 KB deflated
    const member = deflatedMember('spike_times_0.npy', bytes);
    const records = Array.from({ length: 23 }, (_, i) => ({ member: 0, name: `spike_times_${i}.npy` }));
    const zip = hostileZip([member], records);
    expect(zip.length).toBeLessThan(64 << 10);
    const r = await refused(() => readAll(zip, 'bomb.npz'));
    expect(r.message).toMatch(/^bomb\.npz: member 'spike_times_\d+\.npy' overlaps member 'spike_times_\d+\.npy'/);
    expectBounded(r);
    const inspected = await inspectNpzBytes(zip, 'bomb.npz');
    expect(inspected.dataset).toBeNull();
    expect(JSON.stringify(inspected.findings)).toMatch(/overlaps member/);
  });

  it('stops a deflate stream that inflates past its declared size', async () => {
    // a (10,) float64 array, then 64 MiB more in the same stream; the directory declares the array alone
    const { bytes, arrayBytes } = zeroNpy('<f8', [10], 64 << 20);
    const zip = hostileZip([deflatedMember('position.npy', bytes, bytes.subarray(0, arrayBytes))]);
    const r = await refused(() => readAll(zip, 'longer.npz'));
    expect(r.message).toContain(`longer.npz: member 'position.npy' inflates to more than the ${arrayBytes} bytes its zip directory declares`);
    expectBounded(r);
  });

  it('refuses a member declared far larger than the array its header describes, before inflating it', async () => {
    const { bytes, arrayBytes } = zeroNpy('<f8', [10], 64 << 20);
    const zip = hostileZip([deflatedMember('position.npy', bytes)]);
    const r = await refused(() => readAll(zip, 'padded.npz'));
    expect(r.message).toMatch(new RegExp(`^padded\\.npz: 'position' holds ${bytes.length} bytes but its header \\(<f8, shape \\(10\\)\\) declares ${arrayBytes}`));
    expectBounded(r);
  });

  it('refuses a string array of tens of megabytes from its header', async () => {
    const { bytes } = zeroNpy('<U2048', [10_000]); // 78 MiB of UTF-32, 80 KB deflated
    const zip = hostileZip([deflatedMember('electrode_names.npy', bytes)]);
    const r = await refused(() => readAll(zip, 'names.npz'));
    expect(r.message).toMatch(/^names\.npz: 'electrode_names' is a string array of 10000 items of <U2048 \(81920000 bytes\), more than the 67108864 bytes/);
    expectBounded(r);
  });

  it('refuses a tiny member declaring a huge shape', async () => {
    const { bytes } = zeroNpy('<f8', [0]);
    const header = zeroNpy('<f8', [2, 100_000_000]).bytes.subarray(0, bytes.length);
    const zip = hostileZip([deflatedMember('likelihood.npy', header)]);
    const r = await refused(() => readAll(zip, 'sparse.npz'));
    expect(r.message).toMatch(/^sparse\.npz: 'likelihood' is truncated: shape \(2, 100000000\) needs 1600000000 data bytes/);
    expectBounded(r);
  });

  it('refuses an electrode numbered 10^15 without counting up to it', async () => {
    const { bytes } = zeroNpy('<f8', [10]);
    const features = zeroNpy('<f8', [10, 2]).bytes;
    const key = 'spike_times_1000000000000000';
    const zip = hostileZip([deflatedMember(`${key}.npy`, bytes), deflatedMember('spike_waveform_features_1000000000000000.npy', features)]);
    const r = await refused(async () => {
      const inspected = await inspectNpzBytes(zip, 'far.npz');
      throw new Error(JSON.stringify(inspected.findings));
    });
    expect(r.message).toContain(`'${key}' numbers electrode 1000000000000000, beyond the 65535`);
    expectBounded(r);
  });

  it('refuses a directory record that names a member its local header does not', async () => {
    const { bytes } = zeroNpy('<f8', [10]);
    const zip = hostileZip([deflatedMember('spike_times_0.npy', bytes)], [{ member: 0, name: 'spike_times_1.npy' }]);
    const r = await refused(() => readAll(zip, 'renamed.npz'));
    expect(r.message).toMatch(/^renamed\.npz: member 'spike_times_1\.npy' disagrees with its local header \(the local header names it 'spike_times_0\.npy'\)/);
  });
});
