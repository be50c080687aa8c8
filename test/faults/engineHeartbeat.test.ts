/**
 * The engine's heartbeat alone keeps a run alive, and only while the engine runs. An engine that
 * waits (no progress, no CPU used) past the timeout is not taken for hung, because it still sends
 * its heartbeat; once it is stopped (SIGSTOP) the heartbeat stops and its run fails "engine stopped
 * responding". Before, there was no heartbeat and no watchdog: the stopped engine's run stayed
 * running.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkEngine } from '../../src/main/host';
import { createProfilerService, processAlive, type ProfilerService } from '../../src/main/service';
import { presetRun, scratchFolder, statusOnDisk, waitFor } from './faultKit';

const IDLE_ENGINE = fileURLToPath(new URL('./idleEngine.ts', import.meta.url));
/** above two heartbeats, so a missed one is no stall */
const TIMEOUT_MS = 4000;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
let enginePid: number | undefined;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-heartbeat-');
  service = createProfilerService({ runsDir: folder.path, spawnEngine: () => forkEngine({ entry: IDLE_ENGINE }), engineTimeoutMs: TIMEOUT_MS });
});
afterEach(async () => {
  if (enginePid !== undefined && processAlive(enginePid)) process.kill(enginePid, 'SIGKILL');
  enginePid = undefined;
  await service.close();
  await folder.remove();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(process.platform === 'win32')('the engine heartbeat', () => {
  it('keeps an idle engine\'s run going past the timeout, and its absence fails the run once the engine is stopped', async () => {
    const { runId } = await service.startRun(presetRun('tiny'));
    enginePid = await waitFor('the engine pid in status.json', async () => (await statusOnDisk(folder.path, runId))?.enginePid);
    // start-up (compiling, loading) uses CPU, which counts as life too: wait out the timeout twice,
    // so the last stretch is idle and only the heartbeat can have kept the run going
    await pause(2 * TIMEOUT_MS + 1000);
    expect((await service.listRuns()).find((r) => r.id === runId)?.status).toBe('running');

    process.kill(enginePid, 'SIGSTOP');
    const ended = await waitFor('the stopped engine\'s run to end', async () => {
      const entry = (await service.listRuns()).find((r) => r.id === runId);
      return entry?.status === 'running' ? undefined : entry;
    }, TIMEOUT_MS + 5000);
    expect(ended.status).toBe('failed');
    expect(ended.error?.message).toMatch(/^engine stopped responding/);
    expect(processAlive(enginePid)).toBe(false);
    // the service answers (getInfo is left out: it would probe this engine, which never loads a backend)
    expect((await service.listRuns()).map((r) => r.id)).toContain(runId);
  }, 60_000);
});
