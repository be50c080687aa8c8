import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { parseNpy } from './npy';
import { openNpz, openNpzBytes } from './npz';
import { f8, makeNpy, makeNpz, makeZip64Npz } from '../testing';
import { memorySource, readCentralDirectory, readEntry } from './zip';

const dir = mkdtempSync(join(tmpdir(), 'kde-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

const members = {
  a: f8([1, 2, 3]),
  b: makeNpy({ descr: '>f4', shape: [2, 2], values: [1, 2, 3, 4], fortran: true }),
  big: f8(Array.from({ length: 5000 }, (_, i) => Math.sin(i))),
};

describe('npz members', () => {
  for (const [label, bytes] of [
    ['stored', makeNpz(members, 0)],
    ['deflated', makeNpz(members, 6)],
    ['zip64', makeZip64Npz(members)],
  ] as const) {
    it(`reads ${label} members from memory and from a file`, async () => {
      const path = join(dir, `${label}.npz`);
      writeFileSync(path, bytes);
      for (const npz of [await openNpzBytes(bytes, 'm.npz'), await openNpz(path)]) {
        expect(npz.keys.sort()).toEqual(['a', 'b', 'big']);
        expect(Array.from((await npz.read('a')).data as Float64Array)).toEqual([1, 2, 3]);
        expect(Array.from((await npz.read('b')).data as Float64Array)).toEqual([1, 2, 3, 4]);
        const big = (await npz.read('big')).data as Float64Array;
        expect(big.length).toBe(5000);
        expect(big[4999]).toBe(Math.sin(4999));
        await npz.close();
      }
    });
  }

  it('names the file in messages by its base name', async () => {
    const path = join(dir, 'named.npz');
    writeFileSync(path, makeNpz(members));
    const npz = await openNpz(path);
    expect(npz.file).toBe('named.npz');
    await npz.close();
  });
});

describe('npz failures are E090', () => {
  it('empty file', async () => {
    const path = join(dir, 'empty.npz');
    writeFileSync(path, new Uint8Array(0));
    const e = await errorOf(openNpz(path));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/empty\.npz: is empty/);
  });

  it('not a zip', async () => {
    const e = await errorOf(openNpzBytes(new TextEncoder().encode('just some text, clearly not a zip archive'), 't.npz'));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/not a zip/);
  });

  it('truncated file (directory cut off)', async () => {
    const full = makeNpz(members, 6);
    const e = await errorOf(openNpzBytes(full.subarray(0, Math.floor(full.length / 2)), 'cut.npz'));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/truncated/);
  });

  it('truncated member data (directory intact)', async () => {
    // the central directory claims a member size that runs past the end of the file
    const bytes = makeNpz({ a: f8([1, 2, 3]) }, 0);
    const patched = bytes.slice();
    const view = new DataView(patched.buffer);
    const cd = patched.length - 22 - (46 + 'a.npy'.length);
    expect(view.getUint32(cd, true)).toBe(0x02014b50);
    view.setUint32(cd + 20, 1 << 20, true);
    // refused from the directory alone, before the member is read
    const e = await errorOf(openNpzBytes(patched, 'short.npz'));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/member 'a\.npy' is truncated/);
    expect(e.location?.key).toBe('a');
  });

  it('corrupt member (CRC mismatch)', async () => {
    const bytes = makeNpz({ a: f8([1, 2, 3]) }, 0).slice();
    bytes[80] = bytes[80]! ^ 0xff;
    const npz = await openNpzBytes(bytes, 'crc.npz');
    const e = await errorOf(npz.read('a'));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/CRC-32/);
  });

  it('unsupported compression method', async () => {
    const bytes = makeNpz({ a: f8([1, 2, 3]) }, 0).slice();
    const view = new DataView(bytes.buffer);
    const cd = bytes.length - 22 - (46 + 'a.npy'.length);
    view.setUint16(cd + 10, 12, true);
    const npz = await openNpzBytes(bytes, 'bz.npz');
    const e = await errorOf(npz.read('a'));
    expect(e.code).toBe('E090');
    expect(e.message).toMatch(/compression method 12/);
  });

  it('a missing file is NOT_FOUND', async () => {
    const e = await errorOf(openNpz(join(dir, 'nope.npz')));
    expect(e.code).toBe('NOT_FOUND');
  });

  it('reads only the directory and the asked-for member of a large file', async () => {
    const bytes = makeNpz({ small: f8([9]), huge: f8(new Float64Array(1_000_000)) }, 0);
    let bytesRead = 0;
    const inner = memorySource(bytes, 'lazy.npz');
    const counting = { ...inner, read: (o: number, n: number) => inner.read(o, n).then((b) => ((bytesRead += b.length), b)) };
    const entries = await readCentralDirectory(counting);
    const small = entries.find((e) => e.name === 'small.npy')!;
    expect(Array.from((parseNpy(await readEntry(counting, small))).data as Float64Array)).toEqual([9]);
    expect(bytes.length).toBeGreaterThan(8_000_000);
    expect(bytesRead).toBeLessThan(100_000);
  });

});

describe('member count', () => {
  it('refuses a directory listing more members than a data file may hold', async () => {
    const { MAX_ZIP_MEMBERS } = await import('./zip');
    // the 16-bit count's maximum is below the cap: only a zip64 end record can list more
    const zip64 = makeZip64Npz({ a: f8([1]) });
    expect(MAX_ZIP_MEMBERS).toBeGreaterThan(0xffff - 1);
    const e = await errorOf(readCentralDirectory(memorySource(patchZip64Count(zip64, MAX_ZIP_MEMBERS + 1), 'many.npz')));
    expect(e.message).toMatch(/many.npz: lists 65537 arrays, more than the 65536/);
  });
});

/** The archive with its zip64 end record's entry counts set to `count`. */
function patchZip64Count(bytes: Uint8Array, count: number): Uint8Array {
  const out = bytes.slice();
  const v = new DataView(out.buffer);
  for (let i = out.length - 22 - 20 - 56; i >= 0; i--) {
    if (v.getUint32(i, true) === 0x06064b50) {
      v.setBigUint64(i + 24, BigInt(count), true);
      v.setBigUint64(i + 32, BigInt(count), true);
      return out;
    }
  }
  throw new Error('no zip64 end record');
}

/** The offset of the central directory record of member `name` (stored, no extra field). */
function centralAt(bytes: Uint8Array, name: string): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encoded = new TextEncoder().encode(name);
  for (let i = bytes.length - 22 - 46; i >= 0; i--) {
    if (v.getUint32(i, true) === 0x02014b50 && encoded.every((b, k) => bytes[i + 46 + k] === b)) return i;
  }
  throw new Error(`no directory record for ${name}`);
}

describe('the directory against the members', () => {
  it('refuses a name listed twice', async () => {
    const patched = makeNpz({ a: f8([1]), b: f8([2]) }, 0).slice();
    patched[centralAt(patched, 'b.npy') + 46] = 'a'.charCodeAt(0);
    const e = await errorOf(openNpzBytes(patched, 'twice.npz'));
    expect(e.message).toMatch(/^twice\.npz: lists member 'a\.npy' twice/);
  });

  it('refuses two records pointing at one member', async () => {
    const patched = makeNpz({ a: f8([1]), b: f8([2]) }, 0).slice();
    new DataView(patched.buffer).setUint32(centralAt(patched, 'b.npy') + 42, 0, true);
    const e = await errorOf(openNpzBytes(patched, 'shared.npz'));
    expect(e.message).toMatch(/^shared\.npz: member '[ab]\.npy' overlaps member '[ab]\.npy'/);
  });

  it('refuses a member whose local header gives another CRC or size than the directory', async () => {
    const bytes = makeNpz({ a: f8([1, 2, 3]) }, 0);
    const crc = bytes.slice();
    new DataView(crc.buffer).setUint32(14, 0x12345678, true);
    const opened = await openNpzBytes(crc, 'crc.npz');
    expect((await errorOf(opened.read('a'))).message).toMatch(/member 'a\.npy' disagrees with its local header \(a different CRC-32\)/);
    const size = bytes.slice();
    new DataView(size.buffer).setUint32(22, 7, true);
    const sized = await openNpzBytes(size, 'size.npz');
    expect((await errorOf(sized.read('a'))).message).toMatch(/member 'a\.npy' disagrees with its local header \(a different uncompressed size\)/);
  });
});
