/**
 * Fault: a decode, or a run saving its likelihoods, whose files do not fit its disk. Before, a
 * 10⁶-row detector decode (14 GB of likelihood, 56 GB of posterior) started on a 512 MiB disk and
 * failed with ENOSPC 40 s later; and `run --save-likelihood` measured every strategy before its
 * first likelihood met the full disk. Now the files are sized against the runs folder's free space
 * before the work: the run fails at once naming the sizes, the folder and what to do, and writes
 * no likelihood.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../src/main/cli/testing';
import { mountSmallDisk, unmount } from '../../src/main/service/store/runStoreTesting.testdata';
import { scratchFolder } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-disk-');
  runsDir = join(folder.path, 'runs');
  await mkdir(runsDir);
});
afterEach(async () => {
  unmount(runsDir);
  await folder.remove();
});

describe('fault: a decode larger than its disk', () => {
  it('is refused before the work, naming what it would write and where', async (ctx) => {
    const refused = mountSmallDisk(runsDir);
    if (refused) return ctx.skip(`no small disk here: mounting a 200 KiB tmpfs failed (${refused})`);
    // medium: 500 rows × 500 bins, a 1 MB likelihood and the detector's posterior beside it, on 200 KiB
    const r = await runCliCaptured(folder.path, ['decode', '--data', 'preset:medium', '--model', 'detector', '--out', join(folder.path, 'out'), '--runs-dir', runsDir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/the decode writes about [\d.]+ MiB \(likelihood [\d.]+ (KiB|MiB), posterior [\d.]+ MiB\) into .*, and its disk has [\d.]+ KiB free/);
    expect(r.stderr).toContain('give --runs-dir a folder on a disk with room');
    const [runId] = (await readdir(runsDir)).filter((n) => /^\d{8}-/.test(n));
    expect(await readdir(join(runsDir, runId!, 'likelihood')).catch(() => [])).toEqual([]);
  }, 120_000);
});

describe('fault: a run saving likelihoods larger than its disk', () => {
  it('is refused before any strategy is measured, naming the files, the folder and the ways out', async (ctx) => {
    const refused = mountSmallDisk(runsDir);
    if (refused) return ctx.skip(`no small disk here: mounting a 200 KiB tmpfs failed (${refused})`);
    const out = join(folder.path, 'out');
    // medium: 500 rows × 500 bins, a 1 MB likelihood per strategy, on 200 KiB
    const r = await runCliCaptured(folder.path, [
      'run', '--data', 'preset:medium', '--strategy', 'reference,compensated', '--local', '--save-likelihood', '--out', out, '--runs-dir', runsDir,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /the run writes about [\d.]+ MiB \(2 likelihoods of [\d.]+ (KiB|MiB) each, local [\d.]+ KiB, axes [\d.]+ KiB\) into .*, and its disk has [\d.]+ KiB free/,
    );
    expect(r.stderr).toContain('give --runs-dir a folder on a disk with room');
    expect(r.stderr).toContain('or run without --save-likelihood');
    const [runId] = (await readdir(runsDir)).filter((n) => /^\d{8}-/.test(n));
    expect(await readdir(join(runsDir, runId!, 'likelihood')).catch(() => [])).toEqual([]);
    // refused before the work: no strategy was timed, and --out holds the failed run's trace and manifest only
    expect(r.stdout).not.toMatch(/reference\s+[\d.]+ ms/);
    const kept = await readdir(out).catch(() => []);
    expect(kept).not.toContain('likelihood');
    expect(kept).not.toContain('report.json');
  }, 120_000);

  it('counts the posterior stage too: its files and the likelihood it reads', async (ctx) => {
    const refused = mountSmallDisk(runsDir);
    if (refused) return ctx.skip(`no small disk here: mounting a 200 KiB tmpfs failed (${refused})`);
    // medium: the decoder's posterior files and the 1 MB likelihood it reads, on 200 KiB, without --save-likelihood
    const r = await runCliCaptured(folder.path, [
      'run', '--data', 'preset:medium', '--strategy', 'compensated', '--model', 'decoder', '--runs-dir', runsDir,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/the run writes about [\d.]+ MiB \(the decoder posterior's files [\d.]+ (KiB|MiB) for each of 2 methods, the likelihood it reads [\d.]+ (KiB|MiB)\)/);
    expect(r.stderr).toContain('or run without the posterior (--model none)');
    expect(r.stdout).not.toMatch(/compensated\s+[\d.]+ ms/);
  }, 120_000);
});
