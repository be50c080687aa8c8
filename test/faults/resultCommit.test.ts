/**
 * Fault: a result folder (`--out DIR`) killed at every step of its commit. Before, `--out` was
 * committed file by file: a kill between renames left the new report.json beside the old
 * report.md, trace and likelihoods, and a later run of fewer strategies left the earlier run's
 * likelihood files beside its report. Now, after a kill at any step, DIR holds the earlier result
 * whole or no manifest beside a pending commit, and the next open finishes the commit: DIR then
 * holds the new result whole and nothing of the old one; a person's own file in DIR is untouched.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingCommit, readResultManifest, recoverResultFolder } from '../../src/main/data';
import { RESULT_FOLDER_NAMES } from '../../src/main/engineProtocol';
import { runScript } from '../../src/main/service/store/runStoreTesting.testdata';
import { scratchFolder } from './faultKit';

const WORKER = fileURLToPath(new URL('./commitWorker.ts', import.meta.url));
const NAMES = { all: RESULT_FOLDER_NAMES };

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-commit-');
});
afterEach(async () => {
  await folder.remove();
});

/** What DIR holds, as a reader sees it: every file (relative path → content), hidden ones included. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name).slice(dir.length + 1)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

/** The visible result files of TAG's commit (see commitWorker.ts) beside the person's notes. */
function resultOf(tag: string): Record<string, string> {
  return { 'notes.txt': 'mine\n', 'report.json': JSON.stringify({ tag }), 'report.md': `# ${tag}\n`, [`likelihood/${tag}.npy`]: tag.repeat(1000) };
}

const visible = (c: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(c).filter(([k]) => !k.startsWith('.') && k !== 'result.json'));

async function commit(dir: string, tag: string, killAt: number): Promise<{ code: number; stdout: string }> {
  return runScript(WORKER, [dir, tag, String(killAt)]);
}

describe('fault: a result folder killed at each step of its commit', () => {
  it('holds the earlier result whole or a pending commit, and the next open makes it the new result whole', async () => {
    const dir = join(folder.path, 'out');
    const first = await commit(dir, 'old', -1);
    expect(first.code, first.stdout).toBe(0);
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    const before = await contents(dir);
    expect(visible(before)).toEqual(resultOf('old'));
    // the steps of a commit over an earlier result: staged, each entry aside and in, the manifest, the clean-up
    const probe = join(folder.path, 'probe');
    await commit(probe, 'old', -1);
    const steps = JSON.parse((await commit(probe, 'new', -1)).stdout) as string[];
    expect(steps[0]).toBe('staged');
    expect(steps).toContain('manifest');
    expect(steps.length).toBeGreaterThanOrEqual(8);
    for (let k = 0; k < steps.length; k++) {
      const dirK = join(folder.path, `out-${k}`);
      await commit(dirK, 'old', -1);
      await writeFile(join(dirK, 'notes.txt'), 'mine\n');
      const killed = await commit(dirK, 'new', k);
      expect(killed.code, `killed at ${steps[k]}`).not.toBe(0);
      const manifest = await readResultManifest(dirK);
      if (manifest) {
        // the manifest names one result, and DIR holds that result whole
        expect(visible(await contents(dirK)), `killed at ${steps[k]}`).toEqual(resultOf(manifest.runId));
      } else {
        expect(await pendingCommit(dirK), `killed at ${steps[k]}: no manifest and no pending commit`).toBe(true);
      }
      await recoverResultFolder(dirK, NAMES);
      const after = await contents(dirK);
      // killed once the staging manifest was written, the commit is finished; killed before it, the earlier result stays
      const expected = steps[k] === 'staged' ? 'old' : 'new';
      expect(visible(after), `killed at ${steps[k]}`).toEqual(resultOf(expected));
      expect(Object.keys(after).filter((f) => f.startsWith('.')), `killed at ${steps[k]}: nothing hidden left`).toEqual([]);
      expect((await readResultManifest(dirK))?.runId).toBe(expected);
    }
  }, 120_000);
});
