/**
 * Fault: a run's owner died and the system gave its pid to another process. Before, the store
 * judged the owner by its pid alone, so the run stayed "running" for as long as that other process
 * lived: cancel said ok and did nothing, delete was refused. Now the owner is recorded as pid plus
 * the process's start time, and a live pid with another start time is a dead owner: the run is
 * listed as failed ("interrupted"), cancel answers and delete removes it. A status written before
 * start times were recorded is still judged by its pid.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService, type ProfilerService, type RunStatusFile } from '../../src/main/service';
import { finishedStatus } from '../../src/main/service/store/runStoreTesting.testdata';
import { presetRun, scratchFolder } from './faultKit';
import { expectInvariants } from './invariants';

const REUSED = '20250101-000000-aaaaaa';
const OWNED = '20250101-000001-bbbbbb';
const OLD_FORM = '20250101-000002-cccccc';

/** this process's start time, field 22 of /proc/self/stat (the fields after the name's ')') */
function ownStartTicks(): number {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[22 - 3]);
}

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let service: ProfilerService | undefined;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-pid-reuse-');
  runsDir = join(folder.path, 'runs');
});
afterEach(async () => {
  await service?.close();
  await folder.remove();
});

/** a run said to be running in `owner` (this test's own process stands for a live one) */
async function runningRun(id: string, owner: Partial<RunStatusFile>): Promise<void> {
  await mkdir(join(runsDir, id), { recursive: true });
  const status = finishedStatus(id, { status: 'running', ownerStore: 'another-service', ...owner });
  await writeFile(join(runsDir, id, 'status.json'), JSON.stringify(status));
  await writeFile(join(runsDir, id, 'config.json'), JSON.stringify(presetRun('tiny')));
}

describe.skipIf(process.platform !== 'linux')('fault: the owner pid of a running run now belongs to another process', () => {
  it('lists that run as interrupted, and cancel and delete work on it; a run of the live owner stays running', async () => {
    const start = ownStartTicks();
    expect(Number.isSafeInteger(start)).toBe(true);
    // the same pid, started at another time: the process that wrote the status is gone
    await runningRun(REUSED, { ownerPid: process.pid, ownerStart: start + 1 });
    await runningRun(OWNED, { ownerPid: process.pid, ownerStart: start });
    await runningRun(OLD_FORM, { ownerPid: process.pid });
    service = createProfilerService({ runsDir });

    const listed = new Map((await service.listRuns()).map((r) => [r.id, r]));
    expect(listed.get(REUSED)?.status).toBe('failed');
    expect(listed.get(REUSED)?.error?.message).toMatch(/^interrupted/);
    expect(listed.get(OWNED)?.status).toBe('running');
    expect(listed.get(OLD_FORM)?.status).toBe('running');

    await service.cancelRun(REUSED);
    expect((await service.getRun(REUSED)).entry.status).toBe('failed');
    await service.deleteRun(REUSED);
    expect(existsSync(join(runsDir, REUSED))).toBe(false);
    await expect(service.deleteRun(OWNED)).rejects.toThrow(/running in/);

    // the live owner's runs end as any finished run would, so the folder's invariants hold
    for (const id of [OWNED, OLD_FORM]) await writeFile(join(runsDir, id, 'status.json'), JSON.stringify(finishedStatus(id)));
    await expectInvariants(service, runsDir, { expected: { [OWNED]: 'completed', [OLD_FORM]: 'completed' } });
  });
});
