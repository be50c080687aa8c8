/**
 * Fault: a second process on the same runs folder. While this service runs a run, another process
 * adds runs through its own run store (as a second CLI would) and asks its own service to delete the
 * live run; or another process (`rm -rf`, as an older server or a person might) removes the live
 * run's folder outright.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { indexedEntries, runWorker } from '../../src/main/service/store/runStoreTesting.testdata';
import { engineBusy, engineUntilCancelled, presetRun, runFaultWorker, scratchFolder, statusOnDisk, waitFor } from './faultKit';
import type { Outcome } from './faultWorker';
import { expectHonestListing, expectInvariants, notesFor, type Expected } from './invariants';

const ADDED_ELSEWHERE = 30;
const QUEUED_HERE = 5;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-second-process-');
  service = createProfilerService({ runsDir: folder.path });
});
afterEach(async () => {
  await service.close();
  await folder.remove();
});

describe('fault: a second process on the same runs folder', () => {
  it('adds runs beside a live one without losing any, and cannot delete the live run', async (ctx) => {
    // a run that stays running until this test cancels it, however long the other process takes
    const own = createProfilerService({ runsDir: folder.path, spawnEngine: engineUntilCancelled() });
    let expected: Record<string, Expected> = {};
    let runId = '';
    try {
      runId = (await own.startRun(presetRun('tiny'))).runId;
      await waitFor('the run to be running', async () => ((await statusOnDisk(folder.path, runId))?.status === 'running' ? true : undefined));
      // both processes write index.json at once: the other adds runs, this one queues and cancels some
      const adding = runWorker(['add', folder.path, String(ADDED_ELSEWHERE)]);
      const deleting = runFaultWorker(['delete', folder.path, runId]);
      const queued: string[] = [];
      for (let i = 0; i < QUEUED_HERE; i++) queued.push((await own.startRun(presetRun('tiny'))).runId);
      await Promise.all(queued.map((id) => own.cancelRun(id)));

      const added = await adding;
      expect(added, added.stderr).toMatchObject({ code: 0 });
      const addedIds = JSON.parse(added.stdout) as string[];
      const refused = await deleting;
      expect(refused, refused.stderr).toMatchObject({ code: 0 });
      expect(JSON.parse(refused.stdout) as Outcome<string>).toEqual({
        error: { code: 'BAD_ARGUMENT', message: `run ${runId} is running in process ${process.pid}: stop it there (or wait for it to finish), then delete it.` },
      });
      await own.cancelRun(runId);
      expect((await own.whenFinished(runId)).status).toBe('cancelled');

      expected = { [runId]: 'cancelled' };
      for (const id of queued) expected[id] = 'cancelled';
      for (const id of addedIds) expected[id] = 'completed';
      expectHonestListing(await own.listRuns(), expected, 'the service that ran the run');
    } finally {
      await own.close();
    }
    // the stand-in engine answers no probe of backends, so the rest is asked of a service with real ones
    await expectInvariants(service, folder.path, { expected, traced: [runId], notes: notesFor(ctx) });
    expect((await indexedEntries(folder.path)).map((r) => r.id).sort()).toEqual(Object.keys(expected).sort());
  });

  it('ends a run whose folder another process removed once, without a stack, and runs the next', async (ctx) => {
    const finals: RunEvent[] = [];
    const { runId } = await service.startRun(presetRun('small', { repeats: 3 }, ['reference', 'compensated']));
    service.subscribe(runId, (e) => {
      if (e.type === 'status' && e.status !== 'queued' && e.status !== 'running') finals.push(e);
    });
    const next = await service.startRun(presetRun('tiny'));
    await engineBusy(service, runId);
    const removed = spawnSync('rm', ['-rf', join(folder.path, runId)], { encoding: 'utf8' });
    expect(removed.status, removed.stderr).toBe(0);

    const final = await service.whenFinished(runId);
    expect(['completed', 'failed']).toContain(final.status);
    expect(finals).toHaveLength(1);
    expect(JSON.stringify(finals)).not.toMatch(/\\n\s+at /);
    expect((await service.whenFinished(next.runId)).status).toBe('completed');

    // the removed run is gone from the folder, and so from every listing
    await expectInvariants(service, folder.path, { expected: { [next.runId]: 'completed' }, traced: [next.runId], notes: notesFor(ctx) });
    expect((await service.listRuns()).map((r) => r.id)).not.toContain(runId);
  });
});
