import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFifo, releaseFifo } from '../testing';
import { gunzipBounded, readUntrustedFile, readUntrustedText } from './untrustedFile';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-untrusted-'));
});
afterEach(async () => {
  releaseFifo(join(dir, 'pipe'));
  await rm(dir, { recursive: true, force: true });
});

describe('readUntrustedFile', () => {
  it('reads a regular file within its size', async () => {
    await writeFile(join(dir, 'a.json'), '{}');
    expect(await readUntrustedText(join(dir, 'a.json'), { maxBytes: 10, within: dir })).toBe('{}');
  });

  it('refuses a file larger than its cap before reading it', async () => {
    await writeFile(join(dir, 'big'), Buffer.alloc(100));
    await expect(readUntrustedFile(join(dir, 'big'), { maxBytes: 99 })).rejects.toThrow(/holds 100 bytes, more than the 99/);
  });

  it('refuses a link, even to a file inside the folder, and a device', async () => {
    await writeFile(join(dir, 'real'), 'x');
    await symlink(join(dir, 'real'), join(dir, 'link'));
    await expect(readUntrustedFile(join(dir, 'link'), { maxBytes: 10, within: dir })).rejects.toThrow(/is a symbolic link/);
    await symlink('/dev/zero', join(dir, 'zero'));
    await expect(readUntrustedFile(join(dir, 'zero'), { maxBytes: 10 })).rejects.toThrow(/is a symbolic link/);
    await expect(readUntrustedFile('/dev/zero', { maxBytes: 10 })).rejects.toThrow(/is a device/);
  });

  it('refuses a file whose folder leads out of the folder it must lie in', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'kde-untrusted-outside-'));
    try {
      await writeFile(join(outside, 'secret'), 'x');
      await symlink(outside, join(dir, 'run'));
      await expect(readUntrustedFile(join(dir, 'run', 'secret'), { maxBytes: 10, within: dir })).rejects.toThrow(/lies outside/);
      await mkdir(join(dir, 'inner'));
      await writeFile(join(dir, 'inner', 'ok'), 'y');
      expect(await readUntrustedText(join(dir, 'inner', 'ok'), { maxBytes: 10, within: dir })).toBe('y');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses a named pipe at once', async (ctx) => {
    if (!makeFifo(join(dir, 'pipe'))) return ctx.skip('no mkfifo here');
    await expect(readUntrustedFile(join(dir, 'pipe'), { maxBytes: 10 })).rejects.toThrow(/named pipe/);
  });

  it('says a missing file does not exist', async () => {
    await expect(readUntrustedFile(join(dir, 'nothing'), { maxBytes: 10 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('gunzipBounded', () => {
  it('inflates within the bound and refuses beyond it, from the trailer, before inflating', async () => {
    const gz = gzipSync(Buffer.alloc(10_000));
    expect((await gunzipBounded(gz, 10_000, 't.gz')).length).toBe(10_000);
    await expect(gunzipBounded(gz, 9_999, 't.gz')).rejects.toThrow(/t\.gz declares 10000 bytes inflated in its gzip trailer, more than the 9999 .*it was not inflated/);
    await expect(gunzipBounded(Buffer.from('not gzip'), 100, 't.gz')).rejects.toThrow(/too short for gzip/);
    await expect(gunzipBounded(Buffer.from('not gzip at all, but long enough'), 2 ** 31, 't.gz')).rejects.toThrow(/cannot be inflated|declares/);
    expect((await gunzipBounded(gzipSync(Buffer.alloc(0)), 100, 't.gz')).length).toBe(0);
  });

  it('stops inflating at the size the trailer declares when the file lies about it', async () => {
    const gz = gzipSync(Buffer.alloc(200_000));
    // a trailer that says 1 000 bytes over a stream of 200 000 (zlib hands output over in 16 KiB pieces)
    gz.writeUInt32LE(1000, gz.length - 4);
    await expect(gunzipBounded(gz, 1e6, 'lie.gz')).rejects.toThrow(/lie\.gz inflates to more than the 1000 bytes its gzip trailer declares/);
  });
});
