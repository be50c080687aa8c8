/**
 * A runs folder that cannot take writes: read-only (another user's, a read-only mount), or on a
 * full disk. Reading it still works — list, open, export, timeline — without writing a byte; a
 * write fails with an error about the runs folder and what to do, never about a temporary file.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { exampleReport } from '../../export/exampleReport.testdata';
import { ndjsonLine, serializeReport } from '../../export';
import { newRunId } from './runIds';
import { RunStore, type RunStatusFile } from './runStore';
import type { ReadReport } from './runStoreWorker.testdata';
import { createProfilerService } from '../profilerService';
import { DEAD_PID, finishedStatus, indexedEntries, mountReadOnlyView, mountSmallDisk, readOnlyViewer, runWorker, unmount } from './runStoreTesting.testdata';
import { simulateRun } from '../timeline/testing';

const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'run-store-folder-'));
});
afterEach(async () => {
  await chmodTree(base, 0o755);
  await rm(base, { recursive: true, force: true });
});

async function chmodTree(dir: string, mode: number): Promise<void> {
  await chmod(dir, mode);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await chmodTree(join(dir, entry.name), mode);
  }
}

/** every file under `dir` with its content, to show nothing was written */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path] = (await readFile(path)).toString('base64');
    }
  }
  return out;
}

async function writeRun(runsDir: string, status: RunStatusFile, files: Record<string, string> = {}): Promise<string> {
  await mkdir(join(runsDir, status.id));
  await writeFile(join(runsDir, status.id, 'status.json'), JSON.stringify(status));
  await writeFile(join(runsDir, status.id, 'config.json'), JSON.stringify(config));
  for (const [name, text] of Object.entries(files)) await writeFile(join(runsDir, status.id, name), text);
  return status.id;
}

/** a finished run with its report and events but no trace.json.gz yet, and one whose owner died mid-run */
async function twoRuns(runsDir: string): Promise<{ finished: string; orphan: string }> {
  const events = simulateRun(7, { electrodes: 2, maxBlocks: 2 }).map((b) => ndjsonLine(b.records)).join('');
  const finished = await writeRun(runsDir, finishedStatus(newRunId()), { 'events.ndjson': events, 'report.json': serializeReport(exampleReport()) });
  const orphan = await writeRun(runsDir, finishedStatus(newRunId(), { status: 'running', ownerPid: DEAD_PID }));
  return { finished, orphan };
}

function expectRunsFolderError(outcome: unknown, runsDir: string, problem: RegExp): void {
  expect(outcome).toMatchObject({ error: { code: 'IO' } });
  const message = (outcome as { error: { message: string } }).error.message;
  expect(message).toMatch(problem);
  expect(message).toContain(runsDir);
  expect(message).not.toMatch(/\.tmp|\.lock/);
}

describe('a read-only runs folder (chmod 0555)', () => {
  it('lists, opens, exports and draws its runs without writing, and refuses writes naming the folder', async (ctx) => {
    const viewer = readOnlyViewer();
    if ('skip' in viewer) return ctx.skip(viewer.skip);
    const runsDir = join(base, 'runs');
    await mkdir(runsDir);
    const { finished, orphan } = await twoRuns(runsDir);
    await chmodTree(base, 0o755);
    await chmodTree(runsDir, 0o555);
    const before = await snapshot(runsDir);

    const r = await runWorker(['read', runsDir], { asOtherUser: viewer.asOtherUser });
    expect(r, r.stderr).toMatchObject({ code: 0 });
    const seen = JSON.parse(r.stdout) as ReadReport;
    if (viewer.asOtherUser) expect(seen.uid).not.toBe(0);

    expect(seen.runs).toMatchObject({ ok: [{ id: expect.any(String) }, { id: expect.any(String) }] });
    const listed = 'ok' in seen.runs ? seen.runs.ok : [];
    expect(listed.find((e) => e.id === orphan)).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/^interrupted/) } });
    expect(seen.details[finished]).toEqual({ ok: { status: 'completed', report: true } });
    for (const format of ['trace', 'md', 'json', 'csv']) expect(seen.exports[finished]![format]).toEqual({ ok: expect.any(Number) });
    expect(seen.timeline[finished]).toEqual({ ok: expect.any(Number) });
    expect((seen.timeline[finished] as { ok: number }).ok).toBeGreaterThan(0);

    const notWritable = new RegExp(`^the runs folder ${runsDir} is not writable \\((EACCES|EPERM|EROFS)\\): choose another with --runs-dir or fix its permissions`);
    expectRunsFolderError(seen.create, runsDir, notWritable);
    expectRunsFolderError(seen.delete, runsDir, notWritable);
    // not a byte written: no index.json, no lock, no rebuilt trace, the orphan's status as it was
    expect(await snapshot(runsDir)).toEqual(before);
  }, 60_000);
});

describe('a runs folder on a read-only mount (EROFS)', () => {
  it('lists, opens and exports its runs in this process, and refuses a new run naming the folder', async (ctx) => {
    const source = join(base, 'source');
    const runsDir = join(base, 'runs');
    await Promise.all([mkdir(source), mkdir(runsDir)]);
    const { finished, orphan } = await twoRuns(source);
    const refused = mountReadOnlyView(source, runsDir);
    if (refused) return ctx.skip(`no read-only mount here (${refused}); the chmod 0555 test covers the behaviour`);
    const service = createProfilerService({ runsDir });
    try {
      const before = await snapshot(runsDir);
      expect((await service.listRuns()).map((e) => [e.id, e.status]).sort()).toEqual([[finished, 'completed'], [orphan, 'failed']].sort());
      expect((await service.getRun(finished)).report).not.toBeNull();
      expect((await service.exportRun(finished, 'trace')).base64?.length).toBeGreaterThan(0);
      const store = new RunStore(runsDir);
      await store.init();
      const failed = await store.create(finishedStatus(newRunId()), config).catch((e: unknown) => e);
      expectRunsFolderError({ error: failed }, runsDir, new RegExp(`^the runs folder ${runsDir} is not writable \\(EROFS\\)`));
      expect(await snapshot(runsDir)).toEqual(before);
    } finally {
      await service.close();
      unmount(runsDir);
    }
  });
});

describe('a runs folder on a full disk', () => {
  it('still lists its runs, and a new run fails naming the folder and the full disk (a real 200 KiB tmpfs)', async (ctx) => {
    const runsDir = join(base, 'runs');
    await mkdir(runsDir);
    const refused = mountSmallDisk(runsDir);
    if (refused) return ctx.skip(`no real full disk here: mounting a 200 KiB tmpfs failed (${refused}); storeErrors.test.ts covers the behaviour with an injected ENOSPC`);
    try {
      const store = new RunStore(runsDir);
      await store.init();
      const finished = newRunId();
      await store.create(finishedStatus(finished), config);
      const orphan = await writeRun(runsDir, finishedStatus(newRunId(), { status: 'running', ownerPid: DEAD_PID }));
      // fill the disk to the last byte
      await writeFile(join(runsDir, 'filler'), Buffer.alloc(400 * 1024)).catch((e: NodeJS.ErrnoException) => expect(e.code).toBe('ENOSPC'));
      await writeFile(join(runsDir, 'filler2'), Buffer.alloc(4096)).catch(() => undefined);

      await store.refresh();
      expect(store.list().map((e) => [e.id, e.status])).toEqual(expect.arrayContaining([[finished, 'completed'], [orphan, 'failed']]));

      const failed = await store.create(finishedStatus(newRunId()), config).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(AppError);
      expectRunsFolderError({ error: failed }, runsDir,
        new RegExp(`^the disk holding the runs folder ${runsDir} is full \\((ENOSPC|EDQUOT)\\): free space or choose another runs folder with --runs-dir`));
      expect((await readdir(runsDir, { recursive: true })).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
      expect((await indexedEntries(runsDir)).map((r) => r.id)).toEqual([finished]);
    } finally {
      unmount(runsDir);
    }
  }, 30_000);
});
