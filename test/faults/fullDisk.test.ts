/**
 * Fault: the disk holding the runs folder fills up mid-run (a real 200 KiB tmpfs, filled to a few
 * blocks short). The run stops as failed saying the disk is full; the service answers throughout;
 * the trace recorded before the disk filled exports; and once space is freed the folder itself
 * says the run failed, so other readers stop seeing it as running.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService } from '../../src/main/service';
import { mountSmallDisk, unmount } from '../../src/main/service/store/runStoreTesting.testdata';
import { presetRun, scratchFolder, statusOnDisk } from './faultKit';
import { expectHonestListing, expectInvariants, expectServiceAnswers, expectTracesExport, notesFor } from './invariants';

/** what is left free on the small disk when the run starts: its folder and first events fit, the rest does not */
const ROOM_BYTES = 48 * 1024;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-full-disk-');
});
afterEach(async () => {
  unmount(folder.path);
  await folder.remove();
});

/** Fills the disk at `dir` until `room` bytes are left (to the block). */
async function fillDisk(dir: string, room: number): Promise<void> {
  const df = spawnSync('df', ['--output=avail', '-B1', dir], { encoding: 'utf8' });
  const available = Number(df.stdout.trim().split('\n').at(-1));
  expect(Number.isFinite(available), df.stderr).toBe(true);
  await writeFile(join(dir, 'filler'), Buffer.alloc(Math.max(0, available - room)));
}

describe('fault: the runs folder\'s disk fills up mid-run', () => {
  it('fails the run naming the full disk, keeps answering and exporting, and saves the status once space is back', async (ctx) => {
    const refused = mountSmallDisk(folder.path);
    if (refused) return ctx.skip(`no real full disk here: mounting a 200 KiB tmpfs failed (${refused}); eventLogFailure.test.ts covers this with an injected ENOSPC`);
    const service = createProfilerService({ runsDir: folder.path });
    try {
      await service.listRuns();
      await fillDisk(folder.path, ROOM_BYTES);
      const { runId } = await service.startRun(presetRun('small', { repeats: 3 }, ['reference', 'compensated']));
      const final = await service.whenFinished(runId);
      expect(final.status).toBe('failed');
      expect(final.error?.message).toContain(`the disk holding the runs folder ${service.runsDir} is full (ENOSPC)`);

      // while the disk is full: the service answers, lists the run as failed, and exports its trace
      const notes = notesFor(ctx);
      expectHonestListing(await expectServiceAnswers(service), { [runId]: 'failed' }, 'the service on a full disk');
      await expectTracesExport(service, [runId], notes);
      expect((await statusOnDisk(folder.path, runId))?.status).toBe('running');

      // space comes back: the next listing saves the final status where every reader sees it
      expect(spawnSync('mount', ['-o', 'remount,size=4m', folder.path]).status).toBe(0);
      await expectInvariants(service, folder.path, { expected: { [runId]: { status: 'failed', error: /is full \(ENOSPC\)/ } }, traced: [runId], notes });
      expect((await statusOnDisk(folder.path, runId))?.status).toBe('failed');
    } finally {
      await service.close();
    }
  });
});
