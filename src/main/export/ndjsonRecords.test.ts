import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../shared/events';
import { ndjsonLine, readNdjsonRecords } from './ndjsonRecords';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-ndjson-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record: TraceRecord = { ph: 'i', name: 'x', cat: 'run', ts: 1, proc: 'service', lane: 'main' } as unknown as TraceRecord;

describe('readNdjsonRecords', () => {
  it('reads batches and reports a cut last line', async () => {
    const path = join(dir, 'events.ndjson');
    await writeFile(path, ndjsonLine([record]) + '\n' + ndjsonLine([record]) + '[{"ph":');
    const r = await readNdjsonRecords(path);
    expect(r.batches).toBe(2);
    expect(r.badLines).toBe(1);
    expect(r.truncatedTail).toBe(true);
  });

  it('skips a line longer than its bound without holding it, and reads the lines after it', async () => {
    const path = join(dir, 'events.ndjson');
    await writeFile(path, Buffer.concat([Buffer.from(ndjsonLine([record])), Buffer.alloc(5000), Buffer.from('\n' + ndjsonLine([record]))]));
    const r = await readNdjsonRecords(path, 1000);
    expect(r.batches).toBe(2);
    expect(r.badLines).toBe(1);
    expect(r.truncatedTail).toBe(false);
    await writeFile(path, Buffer.concat([Buffer.from(ndjsonLine([record])), Buffer.alloc(5000)]));
    expect((await readNdjsonRecords(path, 1000)).truncatedTail).toBe(true);
  });

  it('refuses a link, a device and a missing file', async () => {
    await symlink('/dev/zero', join(dir, 'link'));
    await expect(readNdjsonRecords(join(dir, 'link'))).rejects.toThrow(/symbolic link/);
    await expect(readNdjsonRecords('/dev/zero')).rejects.toThrow(/not a regular file/);
    await expect(readNdjsonRecords(join(dir, 'none'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
