/**
 * Fault: a result written where a person asked (`decode --out`, `export --out`) meets a full disk
 * or a link at the target. An earlier decode's likelihood and decode.json stay as they were until
 * the new ones are complete (they were removed before the copy, and a full disk left nothing), the
 * failure names the completed run and where its result is, no temporary file is left, and export
 * never writes through a link.
 */
import { readdir, readFile, symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../src/main/cli/testing';
import { mountSmallDisk, unmount } from '../../src/main/service/store/runStoreTesting.testdata';
import { scratchFolder } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let outDir: string;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-results-');
  outDir = join(folder.path, 'out');
  await mkdir(outDir);
});
afterEach(async () => {
  unmount(outDir);
  await folder.remove();
});

/** Fills the disk at `dir` until `room` bytes are left (to the block). */
async function fillDisk(dir: string, room: number): Promise<void> {
  const df = spawnSync('df', ['--output=avail', '-B1', dir], { encoding: 'utf8' });
  const available = Number(df.stdout.trim().split('\n').at(-1));
  await writeFile(join(dir, 'filler'), Buffer.alloc(Math.max(0, available - room)));
}

const OLD_LIKELIHOOD = Buffer.from('an earlier decode\'s likelihood '.repeat(100));
const OLD_SUMMARY = '{"earlier": true}\n';

describe('fault: decode --out on a full disk', () => {
  it('keeps the earlier result whole and says where the completed run\'s result is', async (ctx) => {
    const refused = mountSmallDisk(outDir);
    if (refused) return ctx.skip(`no small disk here: mounting a 200 KiB tmpfs failed (${refused})`);
    await mkdir(join(outDir, 'likelihood'));
    await writeFile(join(outDir, 'likelihood', 'auto.npy'), OLD_LIKELIHOOD);
    await writeFile(join(outDir, 'decode.json'), OLD_SUMMARY);
    // the new likelihood (about 20 KB) fits neither beside the old one nor in its place
    await fillDisk(outDir, 8 * 1024);
    const runsDir = join(folder.path, 'runs');
    const r = await runCliCaptured(folder.path, ['decode', '--data', 'preset:tiny', '--out', outDir, '--runs-dir', runsDir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/run \d{8}-\d{6}-[0-9a-f]{6} completed/);
    expect(r.stderr).toContain('the disk is full (ENOSPC)');
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6}) completed/.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`the complete result is in ${join(runsDir, runId, 'likelihood', 'auto.npy')}`);
    expect(await readFile(join(outDir, 'likelihood', 'auto.npy'))).toEqual(OLD_LIKELIHOOD);
    expect(await readFile(join(outDir, 'decode.json'), 'utf8')).toBe(OLD_SUMMARY);
    expect((await readdir(join(outDir, 'likelihood'))).sort()).toEqual(['auto.npy']);
    expect((await readdir(outDir)).sort()).toEqual(['decode.json', 'filler', 'likelihood']);
  }, 120_000);
});

describe('fault: export --out names a link', () => {
  it('is refused, and the file the link points at is untouched', async () => {
    const runsDir = join(folder.path, 'runs');
    const run = await runCliCaptured(folder.path, ['run', '--data', 'preset:tiny', '--strategy', 'reference', '--runs-dir', runsDir]);
    expect(run.code, run.stderr).toBe(0);
    const [runId] = await readdir(runsDir).then((names) => names.filter((n) => /^\d{8}-/.test(n)));
    const victim = join(folder.path, 'victim.txt');
    await writeFile(victim, 'not a report\n');
    const link = join(folder.path, 'report.md');
    await symlink(victim, link);
    const r = await runCliCaptured(folder.path, ['export', runId!, '--format', 'md', '--out', link, '--runs-dir', runsDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${link} is a symbolic link`);
    expect(await readFile(victim, 'utf8')).toBe('not a report\n');
    // a plain file at the target is kept unless --force, and then replaced whole
    const plain = join(folder.path, 'plain.md');
    await writeFile(plain, 'old\n');
    const refused = await runCliCaptured(folder.path, ['export', runId!, '--format', 'md', '--out', plain, '--runs-dir', runsDir]);
    expect(refused.code).toBe(2);
    expect(await readFile(plain, 'utf8')).toBe('old\n');
    const ok = await runCliCaptured(folder.path, ['export', runId!, '--format', 'md', '--out', plain, '--force', '--runs-dir', runsDir]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await readFile(plain, 'utf8')).toContain('#');
    expect((await readdir(folder.path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});
