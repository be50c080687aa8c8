/**
 * Fault: the engine process is killed (SIGKILL, as the system does when memory runs out) mid-run.
 * The run ends failed saying so, the run queued behind it still runs, and what was recorded before
 * the kill exports as a valid trace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService, processAlive, type ProfilerService } from '../../src/main/service';
import { engineBusy, LONG_RUN, presetRun, scratchFolder, statusOnDisk, waitFor } from './faultKit';
import { expectInvariants, notesFor } from './invariants';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-engine-kill-');
  service = createProfilerService({ runsDir: folder.path });
});
afterEach(async () => {
  await service.close();
  await folder.remove();
});

describe('fault: SIGKILL of the engine process mid-run', () => {
  it('fails that run with the reason, runs the next, and keeps the service, the listing and the traces sound', async (ctx) => {
    const { runId } = await service.startRun(LONG_RUN);
    const busy = engineBusy(service, runId);
    const next = await service.startRun(presetRun('tiny'));
    await busy;
    const enginePid = (await waitFor('the engine pid in status.json', async () => (await statusOnDisk(folder.path, runId))?.enginePid))!;
    process.kill(enginePid, 'SIGKILL');

    const killed = await service.whenFinished(runId);
    expect(killed.status).toBe('failed');
    expect(killed.error?.message).toMatch(/killed \(SIGKILL\)/);
    expect(processAlive(enginePid)).toBe(false);
    expect((await service.whenFinished(next.runId)).status).toBe('completed');

    await expectInvariants(service, folder.path, {
      expected: { [runId]: { status: 'failed', error: /killed \(SIGKILL\)/ }, [next.runId]: 'completed' },
      traced: [runId, next.runId],
      notes: notesFor(ctx),
    });
  });
});
