/**
 * Fault: a run's folder cannot take its status as the run starts (status.json has become a folder,
 * so the atomic rename onto it fails, for root too). The run ends failed, and only after its real
 * engine process has exited: the run queued behind it never computes beside a leftover engine.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkEngine, type SpawnEngine } from '../../src/main/host';
import { createProfilerService, processAlive, type ProfilerService } from '../../src/main/service';
import { LONG_RUN, presetRun, scratchFolder } from './faultKit';
import { expectInvariants, notesFor } from './invariants';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
/** the pid of each engine started, in order */
const engines: (number | undefined)[] = [];
/** for each engine started, how many engines started before it were still alive then */
const aliveAtSpawn: number[] = [];

/** real engines; the first breaks its run's status.json as it is told to start */
const spawnEngine: SpawnEngine = () => {
  aliveAtSpawn.push(engines.filter((pid) => pid !== undefined && processAlive(pid)).length);
  const child = forkEngine();
  const first = engines.length === 0;
  engines.push(child.pid);
  const send = child.send.bind(child);
  return {
    ...child,
    pid: child.pid,
    send(m) {
      if (first && m.type === 'start') {
        rmSync(join(m.runDir, 'status.json'), { force: true });
        mkdirSync(join(m.runDir, 'status.json'));
      }
      send(m);
    },
  };
};

beforeEach(async () => {
  engines.length = 0;
  aliveAtSpawn.length = 0;
  folder = await scratchFolder('kde-fault-start-unwritable-');
  service = createProfilerService({ runsDir: folder.path, spawnEngine });
});
afterEach(async () => {
  await service.close();
  await folder.remove();
});

describe('fault: a run whose folder cannot be written as it starts', () => {
  it('ends failed once its engine has exited; the next run then runs alone', async (ctx) => {
    const broken = await service.startRun(LONG_RUN);
    const next = await service.startRun(presetRun('tiny'));
    const final = await service.whenFinished(broken.runId);
    expect(final.status).toBe('failed');
    expect(processAlive(engines[0]!)).toBe(false);
    expect((await service.whenFinished(next.runId)).status).toBe('completed');
    expect(engines).toHaveLength(2);
    // the second engine started with no other alive
    expect(aliveAtSpawn).toEqual([0, 0]);
    expect(final.error?.message).toMatch(/could not save the run's status in .*The engine was stopped before the next run started\./);

    await expectInvariants(service, folder.path, {
      expected: { [broken.runId]: 'failed', [next.runId]: 'completed' },
      // a fresh reader finds no readable status.json in the broken run's folder, and so does not list it
      folderExpected: { [next.runId]: 'completed' },
      traced: [next.runId],
      notes: notesFor(ctx),
    });
  });
});
