/**
 * Every name in a run's folder is one the run folder's layout (engineProtocol/runFolder.ts) says,
 * so whoever reads, copies, exports or cleans a run folder knows each file there. Before,
 * progress.json (a run's latest progress, kept for pages another process serves) was named only
 * by the service's progress writer: a run's folder held a file its layout did not list. A run's
 * progress stays in its own folder: `run --out` does not copy it, a merge of shards does not take
 * it over, and a recorded run with it exports as any other.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DECODE_SUMMARY_FILE, EXTERNAL_DIR, LIKELIHOOD_DIR, MERGE_SUMMARY_FILE, POSTERIOR_DIR, POSTERIOR_WORK_DIR, RUN_FILES,
} from '../../src/main/engineProtocol';
import { createProfilerService } from '../../src/main/service';
import { runCliCaptured } from '../../src/main/cli/testing';
import { presetRun, scratchFolder } from './faultKit';

/** what the layout names, read from its parts: RUN_FILES (the service's files) and the engine's folders and summaries */
const LAYOUT_NAMES = new Set<string>([
  ...Object.values(RUN_FILES), LIKELIHOOD_DIR, POSTERIOR_DIR, POSTERIOR_WORK_DIR, EXTERNAL_DIR, DECODE_SUMMARY_FILE, MERGE_SUMMARY_FILE,
]);

const runFolders = async (runsDir: string): Promise<string[]> => (await readdir(runsDir)).filter((n) => /^\d{8}-\d{6}-/.test(n)).sort();

async function unlisted(runDir: string): Promise<string[]> {
  return (await readdir(runDir)).filter((n) => !LAYOUT_NAMES.has(n));
}

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeAll(async () => {
  folder = await scratchFolder('kde-fault-run-folder-names-');
});
afterAll(async () => folder.remove());

describe('the names in a run folder', () => {
  it('are all the layout\'s, progress.json among them, after a run the service ran', async () => {
    const runsDir = join(folder.path, 'service-runs');
    const service = createProfilerService({ runsDir });
    let runId: string;
    try {
      ({ runId } = await service.startRun(presetRun('tiny', { saveLikelihood: true }, ['reference', 'compensated'])));
      expect((await service.whenFinished(runId)).status).toBe('completed');
    } finally {
      await service.close();
    }
    const names = await readdir(join(runsDir, runId));
    // a run emits progress from its start, and its service keeps the latest in the folder
    expect(names).toContain('progress.json');
    expect(await unlisted(join(runsDir, runId))).toEqual([]);
    const exported = await runCliCaptured(folder.path, ['export', runId, '--format', 'md', '--runs-dir', runsDir]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('**Status**: completed');
  }, 120_000);

  it('stay in the run folder: `run --out` copies no progress, and a merge of shards takes none over', async () => {
    const runsDir = join(folder.path, 'cli-runs');
    const flags = ['--data', 'preset:tiny', '--strategy', 'reference', '--save-likelihood', '--runs-dir', runsDir];
    const out = join(folder.path, 'out');
    const whole = await runCliCaptured(folder.path, ['run', ...flags, '--out', out]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(await readdir(out)).not.toContain('progress.json');

    const shards = [join(folder.path, 'shard-1'), join(folder.path, 'shard-2')];
    for (const [i, dir] of shards.entries()) {
      const r = await runCliCaptured(folder.path, ['run', ...flags, '--shard', `${i}/2`, '--out', dir]);
      expect(r.code, r.stderr).toBe(0);
    }
    const before = new Set(await runFolders(runsDir));
    const merged = await runCliCaptured(folder.path, ['merge', ...shards, '--runs-dir', runsDir, '--out', join(folder.path, 'merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    const [mergedRun] = (await runFolders(runsDir)).filter((id) => !before.has(id));
    expect(mergedRun).toBeDefined();
    expect(await readdir(join(runsDir, mergedRun!))).not.toContain('progress.json');
    for (const id of await runFolders(runsDir)) expect(await unlisted(join(runsDir, id)), `run ${id}`).toEqual([]);
  }, 240_000);
});
