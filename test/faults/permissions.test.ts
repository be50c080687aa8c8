/**
 * Fault: the runs folder stops being writable mid-run (chmod 0555 of the run's folder and of the
 * runs folder, by their owner). Root ignores chmod, so where the tests run as root the service
 * runs in a process of uid 65534 (setpriv); the engine keeps its open event log, but the report,
 * the trace and the final status can no longer be written. That process keeps the run's true
 * status in memory, refuses a new run naming the folder, exports the trace without writing; once
 * it is gone, the folder lists the run as failed and its trace exports and passes trace-check.
 */
import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService } from '../../src/main/service';
import { readOnlyViewer } from '../../src/main/service/store/runStoreTesting.testdata';
import { OTHER_UID, runFaultWorker, scratchFolder } from './faultKit';
import type { LoseWriteReport } from './faultWorker';
import { expectInvariants, notesFor } from './invariants';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-permissions-');
});
afterEach(async () => {
  await folder.remove();
});

describe('fault: the runs folder becomes read-only mid-run (chmod, non-root user)', () => {
  it('ends the run without a crash or a stack, refuses new runs naming the folder, and leaves an honest folder with a valid trace', async (ctx) => {
    const viewer = readOnlyViewer();
    if ('skip' in viewer) return ctx.skip(viewer.skip);
    const runsDir = join(folder.path, 'runs');
    await mkdir(runsDir);
    if (viewer.asOtherUser) await chown(runsDir, OTHER_UID, OTHER_UID);

    const r = await runFaultWorker(['lose-write', runsDir], { asOtherUser: viewer.asOtherUser });
    expect(r, r.stderr).toMatchObject({ code: 0 });
    const seen = JSON.parse(r.stdout) as LoseWriteReport;
    if (viewer.asOtherUser) expect(seen.uid).toBe(OTHER_UID);

    // in the process that met the fault: one final status, kept in memory, the same when listed
    expect(seen.final).toMatchObject({ ok: { status: expect.stringMatching(/^(completed|failed)$/) } });
    expect(seen.listed).toEqual(seen.final);
    expect(seen.traceBytes).toEqual({ ok: expect.any(Number) });
    expect(seen.nextRun).toMatchObject({ error: { code: 'IO', message: expect.stringMatching(new RegExp(`^the runs folder ${runsDir} is not writable \\(EACCES\\)`)) } });
    expect(seen.logs.some((m) => /could not save the run's status/.test(m) && m.includes('check that the runs folder exists, is writable and has space'))).toBe(true);
    expect(JSON.stringify(seen)).not.toMatch(/\\n\s+at /);

    // that process is gone: its run, never finished on disk, is failed, interrupted, for every reader
    const service = createProfilerService({ runsDir });
    try {
      await expectInvariants(service, runsDir, {
        expected: { [seen.runId]: { status: 'failed', error: /^interrupted/ } },
        traced: [seen.runId],
        notes: notesFor(ctx),
      });
    } finally {
      await service.close();
    }
  });
});
