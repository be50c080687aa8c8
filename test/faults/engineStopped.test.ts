/**
 * Fault: the engine process is stopped (SIGSTOP) mid-run. Before, nothing noticed: the run stayed
 * "running" with its progress frozen, and the runs queued behind it never started. Now the engine
 * sends a heartbeat, and an engine that sends none (and uses no CPU) for the timeout — shortened here
 * through KDE_PROFILER_ENGINE_TIMEOUT_S — is killed and its run fails "engine stopped responding",
 * keeping what it recorded; the next run then runs, and the service answers throughout.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunIndexEntry } from '../../src/shared/api';
import { createProfilerService, processAlive, type ProfilerService } from '../../src/main/service';
import { engineBusy, LONG_RUN, presetRun, scratchFolder, statusOnDisk, waitFor } from './faultKit';
import { expectInvariants, expectServiceAnswers, notesFor } from './invariants';

const TIMEOUT_ENV = 'KDE_PROFILER_ENGINE_TIMEOUT_S';
const TIMEOUT_S = 4;
/** the timeout, a check's lag and the kill's grace, with room for a loaded machine */
const NOTICED_WITHIN_MS = TIMEOUT_S * 1000 + 6000;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
let stoppedPid: number | undefined;
beforeEach(async () => {
  process.env[TIMEOUT_ENV] = String(TIMEOUT_S);
  folder = await scratchFolder('kde-fault-engine-stopped-');
  service = createProfilerService({ runsDir: folder.path });
});
afterEach(async () => {
  delete process.env[TIMEOUT_ENV];
  // a stopped engine left behind by a failing test must not outlive it
  if (stoppedPid !== undefined && processAlive(stoppedPid)) process.kill(stoppedPid, 'SIGKILL');
  stoppedPid = undefined;
  await service.close();
  await folder.remove();
});

function finishedWithin(runId: string, ms: number): Promise<RunIndexEntry> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`run ${runId} was still not ended ${ms} ms after its engine was stopped`)), ms);
  });
  return Promise.race([service.whenFinished(runId), late]).finally(() => clearTimeout(timer));
}

describe.skipIf(process.platform === 'win32')('fault: SIGSTOP of the engine process mid-run', () => {
  it('fails that run as "engine stopped responding" within the timeout, keeps its recording, and runs the next', async (ctx) => {
    const { runId } = await service.startRun(LONG_RUN);
    const busy = engineBusy(service, runId);
    const next = await service.startRun(presetRun('tiny'));
    await busy;
    const enginePid = (await waitFor('the engine pid in status.json', async () => (await statusOnDisk(folder.path, runId))?.enginePid))!;
    process.kill(enginePid, 'SIGSTOP');
    stoppedPid = enginePid;
    const stoppedAt = performance.now();

    // the service answers while its engine is stopped
    await expectServiceAnswers(service);
    const ended = await finishedWithin(runId, NOTICED_WITHIN_MS);
    expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
    expect(ended.status).toBe('failed');
    expect(ended.error?.message).toMatch(/^engine stopped responding/);
    expect(processAlive(enginePid)).toBe(false);
    expect((await stat(join(folder.path, runId, 'events.ndjson'))).size).toBeGreaterThan(0);
    expect((await finishedWithin(next.runId, 60_000)).status).toBe('completed');

    await expectInvariants(service, folder.path, {
      expected: { [runId]: { status: 'failed', error: /engine stopped responding/ }, [next.runId]: 'completed' },
      traced: [runId, next.runId],
      notes: notesFor(ctx),
    });
  }, 120_000);
});
