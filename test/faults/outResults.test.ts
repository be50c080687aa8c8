/**
 * Fault: results at `run --out DIR` from one run to the next. Before, a later run of fewer
 * strategies left the earlier run's likelihood files beside its report, nothing saying they
 * belonged to another run; and a run whose engine was killed copied its partial trace and report
 * over the completed result at DIR. Now DIR holds one run's result (its manifest says which), and
 * a run that does not complete leaves an earlier result at DIR as it was and says so.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../src/main/cli/testing';
import { readResultManifest } from '../../src/main/data';
import { scratchFolder, statusOnDisk, waitFor } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let outDir: string;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-out-');
  runsDir = join(folder.path, 'runs');
  outDir = join(folder.path, 'out');
});
afterEach(async () => {
  await folder.remove();
});

const run = (...args: string[]) => runCliCaptured(folder.path, ['run', '--data', 'preset:tiny', '--runs-dir', runsDir, '--out', outDir, ...args]);

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name).slice(dir.length + 1)] = (await readFile(join(e.parentPath, e.name))).toString('base64');
  }
  return out;
}

describe('fault: one run result at --out', () => {
  it("a later run of fewer strategies leaves none of the earlier run's likelihoods beside its report", async () => {
    const all = await run('--strategy', 'all', '--save-likelihood');
    expect(all.code, all.stderr).toBe(0);
    expect((await readdir(join(outDir, 'likelihood'))).length).toBeGreaterThan(4);
    const two = await run('--strategy', 'reference,compensated', '--save-likelihood');
    expect(two.code, two.stderr).toBe(0);
    expect((await readdir(join(outDir, 'likelihood'))).sort()).toEqual(['axes.json', 'compensated.npy', 'reference.npy']);
    const manifest = await readResultManifest(outDir);
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as { runId: string };
    expect(manifest).toMatchObject({ kind: 'run', status: 'completed', runId: report.runId });
    expect((await readdir(outDir)).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 180_000);

  it('a run whose engine is killed leaves the completed result at --out as it was, and says so', async () => {
    const first = await run('--strategy', 'reference');
    expect(first.code, first.stderr).toBe(0);
    const before = await snapshot(outDir);
    const killed = runCliCaptured(folder.path, [
      'run', '--data', 'preset:medium', '--strategy', 'reference,compensated', '--repeats', '3', '--runs-dir', runsDir, '--out', outDir,
    ]);
    const pid = await waitFor('the second run\'s engine', async () => {
      for (const id of await readdir(runsDir).catch(() => [] as string[])) {
        const status = await statusOnDisk(runsDir, id);
        if (status?.status === 'running' && status.enginePid !== undefined) return status.enginePid;
      }
      return undefined;
    }, 60_000);
    process.kill(pid, 'SIGKILL');
    const r = await killed;
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`--out ${outDir} keeps its earlier result`);
    expect(await snapshot(outDir)).toEqual(before);
  }, 180_000);
});
