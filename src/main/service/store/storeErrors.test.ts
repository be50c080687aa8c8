/**
 * Every write of the run store reports a folder that is not writable, or a full disk, about the
 * runs folder and what to do. Writes fail here by injection (a real full disk and a real read-only
 * folder are in runStoreFolder.test.ts, where the machine allows them).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { exampleReport } from '../../export/exampleReport.testdata';
import { writeReportFiles } from './runFiles';
import { newRunId } from './runIds';
import { RunStore } from './runStore';
import { DEAD_PID, finishedStatus } from './runStoreTesting.testdata';
import { storeWriteError, writeProblemOf } from './storeErrors';

/** the errno every fs/promises writeFile fails with while set */
const injected = vi.hoisted(() => ({ code: undefined as string | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof real.writeFile = async (path, ...rest) => {
    const where = typeof path === 'string' ? path : 'a file handle';
    if (injected.code) throw Object.assign(new Error(`${injected.code}: injected failure, open '${where}'`), { code: injected.code, syscall: 'open', path: where });
    return real.writeFile(path, ...rest);
  };
  return { ...real, writeFile, default: { ...real, writeFile } };
});

const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });
const errno = (code: string) => Object.assign(new Error(`${code}: something, open '/x/runs/a/status.json.1a2b.tmp'`), { code });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-errors-'));
});
afterEach(async () => {
  injected.code = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('storeWriteError', () => {
  it.each([
    ['EACCES', 'the runs folder /x/runs is not writable (EACCES): choose another with --runs-dir or fix its permissions.'],
    ['EPERM', 'the runs folder /x/runs is not writable (EPERM): choose another with --runs-dir or fix its permissions.'],
    ['EROFS', 'the runs folder /x/runs is not writable (EROFS): choose another with --runs-dir or fix its permissions.'],
    ['ENOSPC', 'the disk holding the runs folder /x/runs is full (ENOSPC): free space or choose another runs folder with --runs-dir.'],
    ['EDQUOT', 'the disk holding the runs folder /x/runs is full (EDQUOT): free space or choose another runs folder with --runs-dir.'],
  ])('names the runs folder for %s, not the temporary file', (code, message) => {
    const e = storeWriteError(errno(code), '/x/runs') as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect([e.code, e.message, e.location?.file]).toEqual(['IO', message, '/x/runs']);
  });

  it('reads the errno inside the IO error the trace writer throws', () => {
    const wrapped = new AppError('IO', "could not write the trace to /x/runs/a/trace.json.gz: ENOSPC: no space left on device, write. Check that the folder exists and is writable.");
    expect((storeWriteError(wrapped, '/x/runs') as Error).message).toMatch(/^the disk holding the runs folder \/x\/runs is full \(ENOSPC\)/);
  });

  it('passes other failures through, and keeps its own verdict when applied twice', () => {
    const missing = errno('ENOENT');
    expect(storeWriteError(missing, '/x/runs')).toBe(missing);
    const once = storeWriteError(errno('EROFS'), '/x/runs');
    expect(storeWriteError(once, '/elsewhere')).toBe(once);
    expect(writeProblemOf(once)).toBe('not-writable');
  });
});

describe('a run store whose writes fail', () => {
  it('fails a new run on a full disk naming the runs folder, and leaves no temporary file or empty folder', async () => {
    const store = new RunStore(dir);
    await store.init();
    injected.code = 'ENOSPC';
    const failed = await store.create(finishedStatus(newRunId()), config).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as AppError).message).toBe(`the disk holding the runs folder ${dir} is full (ENOSPC): free space or choose another runs folder with --runs-dir.`);
    expect(await readdir(dir, { recursive: true })).toEqual(['index.json']);
    expect(store.list()).toEqual([]);
  });

  it('reports report files that cannot be written about the runs folder', async () => {
    const id = newRunId();
    await mkdir(join(dir, id));
    injected.code = 'EACCES';
    const paths = { json: join(dir, id, 'report.json'), md: join(dir, id, 'report.md'), csv: join(dir, id, 'report.csv') };
    await expect(writeReportFiles(paths, exampleReport())).rejects.toThrow(`the runs folder ${dir} is not writable (EACCES)`);
    expect(await readdir(join(dir, id))).toEqual([]);
  });

  it('still lists the runs when the index and an interrupted status cannot be rewritten', async () => {
    const id = newRunId();
    await mkdir(join(dir, id));
    await writeFile(join(dir, id, 'status.json'), JSON.stringify(finishedStatus(id, { status: 'running', ownerPid: DEAD_PID })));
    const store = new RunStore(dir);
    for (const code of ['EACCES', 'ENOSPC']) {
      injected.code = code;
      await store.init();
      expect(store.list().map((e) => [e.id, e.status])).toEqual([[id, 'failed']]);
    }
    expect((await readdir(dir)).sort()).toEqual([id]);
  });

  it('still fails loudly on a write failure it cannot explain', async () => {
    const store = new RunStore(dir);
    await store.init();
    injected.code = 'EIO';
    await expect(store.create(finishedStatus(newRunId()), config)).rejects.toMatchObject({ code: 'EIO' });
  });
});
