import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitResultFolder, holdsResult, readResultManifest, RESULT_MANIFEST, stageFile } from './resultFolder';

const NAMES = { all: ['report.json', 'report.md', 'likelihood', 'decode.json'] };
let dir: string;
let out: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-result-folder-'));
  out = join(dir, 'out');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** commits a result of `files` (relative path → text) for run `runId` */
function commitFiles(runId: string, files: Record<string, string>): Promise<void> {
  return commitResultFolder(out, NAMES, { kind: 'run', runId, status: 'completed' }, async (staging) => {
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(join(staging, rel, '..'), { recursive: true });
      await writeFile(join(staging, rel), text);
    }
    return Object.keys(files).map((rel) => rel.split('/')[0]!);
  });
}

describe('a result folder', () => {
  it('is made with its manifest last, naming the run and its entries', async () => {
    await commitFiles('a', { 'report.json': 'A', 'likelihood/x.npy': 'X' });
    expect((await readdir(out)).sort()).toEqual(['likelihood', 'report.json', RESULT_MANIFEST]);
    expect(await readResultManifest(out)).toMatchObject({ kind: 'run', runId: 'a', status: 'completed', entries: ['report.json', 'likelihood'] });
    expect(await holdsResult(out, NAMES)).toBe(true);
  });

  it("replaces every entry of the earlier result and keeps a person's own files", async () => {
    await commitFiles('a', { 'report.json': 'A', 'report.md': 'A', 'likelihood/x.npy': 'X', 'likelihood/y.npy': 'Y' });
    await writeFile(join(out, 'notes.txt'), 'mine');
    await commitFiles('b', { 'report.json': 'B', 'likelihood/z.npy': 'Z' });
    expect((await readdir(out)).sort()).toEqual(['likelihood', 'notes.txt', 'report.json', RESULT_MANIFEST]);
    expect(await readdir(join(out, 'likelihood'))).toEqual(['z.npy']);
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe('B');
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('leaves the folder as it was when filling the result fails, and says the earlier result is unchanged', async () => {
    await commitFiles('a', { 'report.json': 'A' });
    const failing = commitResultFolder(out, NAMES, { kind: 'run', runId: 'b', status: 'completed' }, async (staging) => {
      await writeFile(join(staging, 'report.json'), 'B');
      await stageFile(dir, staging, 'missing.npy');
      return ['report.json'];
    });
    await expect(failing).rejects.toThrow(/could not be written: ENOENT; whatever was there before is unchanged/);
    expect((await readdir(out)).sort()).toEqual(['report.json', RESULT_MANIFEST]);
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe('A');
  });

  it('takes concurrent commits one at a time: the folder ends as one of them, whole', async () => {
    await Promise.all(['a', 'b', 'c'].map((id) => commitFiles(id, { 'report.json': id, [`likelihood/${id}.npy`]: id })));
    const winner = (await readResultManifest(out))!.runId;
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe(winner);
    expect(await readdir(join(out, 'likelihood'))).toEqual([`${winner}.npy`]);
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('links a staged file where it can, so a long likelihood is not copied twice', async () => {
    await writeFile(join(dir, 'big.npy'), 'bytes');
    await commitResultFolder(out, NAMES, { kind: 'decode', runId: 'd', status: 'completed' }, async (staging) => {
      await stageFile(dir, staging, 'big.npy');
      return ['big.npy'];
    });
    expect(await readFile(join(out, 'big.npy'), 'utf8')).toBe('bytes');
    // one file system here: the run's file and the result's are one file
    expect((await stat(join(out, 'big.npy'))).nlink).toBe(2);
  });
});
