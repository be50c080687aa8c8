/**
 * Fault: the engine's own result files (likelihood/<strategy>.npy, axes.json, decode.json) stopped
 * mid-write. Before, they were written straight to their names, so a write cut short (a kill, a
 * full disk) left half a .npy under its final name (10 064 of 20 128 bytes), which the report
 * called "ok". Now each is written to a temporary name and renamed: a write that fails leaves no
 * file under the name and no temporary file, and an earlier file of that name stays whole.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeLikelihood } from '../../src/main/engineProcess/runFiles';
import { mountSmallDisk, unmount } from '../../src/main/service/store/runStoreTesting.testdata';
import { scratchFolder } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runDir: string;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-engine-files-');
  runDir = join(folder.path, 'run');
  await mkdir(runDir);
});
afterEach(async () => {
  unmount(runDir);
  await folder.remove();
});

describe('fault: an engine result file cut short', () => {
  it('leaves nothing under its name, or the earlier file whole, and no temporary file', async (ctx) => {
    const refused = mountSmallDisk(runDir);
    if (refused) return ctx.skip(`no small disk here: mounting a 200 KiB tmpfs failed (${refused})`);
    await mkdir(join(runDir, 'likelihood'));
    const earlier = Buffer.from('an earlier likelihood');
    await writeFile(join(runDir, 'likelihood', 'series.npy'), earlier);
    // 300 × 200 float32 = 240 000 bytes: more than the 200 KiB disk holds
    const values = new Float64Array(300 * 200).fill(-1.5);
    await expect(writeLikelihood(runDir, 'reference', values, 300, 200)).rejects.toThrow(/ENOSPC/);
    await expect(writeLikelihood(runDir, 'series', values, 300, 200)).rejects.toThrow(/ENOSPC/);
    expect((await readdir(join(runDir, 'likelihood'))).sort()).toEqual(['series.npy']);
    expect(await readFile(join(runDir, 'likelihood', 'series.npy'))).toEqual(earlier);
    // a likelihood that fits is written whole
    await writeLikelihood(runDir, 'reference', new Float64Array(10 * 20).fill(2), 10, 20);
    expect((await readFile(join(runDir, 'likelihood', 'reference.npy'))).length).toBe(128 + 10 * 20 * 4);
  });
});
