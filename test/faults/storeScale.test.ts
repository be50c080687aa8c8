/**
 * Scale: a runs folder of many runs. Before, every listing read each run's status.json (20 000 runs:
 * seconds of CPU for `list`, the Runs view rendering every row), and an index.json past its own
 * 64 MiB read cap (about 40 000 runs) counted as damaged, so every listing rebuilt and rewrote it.
 * Now a fresh listing takes its finished runs from index.json and reads the status files of the
 * runs that may have moved on only, writes nothing when the index already says what the folders
 * say, and the index's cap grows with the run folders it lists; the service answers a page of
 * runs with the total, and `list` prints a page saying how many more there are.
 *
 * Work is counted, not timed: the status files opened are counted by wrapping fs.promises.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunIndexEntry } from '../../src/shared/api';
import { createProfilerService, RunStore, type ProfilerService, type RunStatusFile } from '../../src/main/service';
import { DEAD_PID, finishedStatus, runIdsInOrder as runIds, writeRunFolders as writeRuns } from '../../src/main/service/store/runStoreTesting.testdata';
import { runCliCaptured } from '../../src/main/cli/testing';
import { scratchFolder } from './faultKit';

const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
const OLD_INDEX_CAP_BYTES = 64 * 2 ** 20;

/** Counts the status files opened or looked at from now until stop(). */
function countStatusReads(): { count(): number; stop(): void } {
  const { open, lstat } = fsp;
  let n = 0;
  const seen = (path: unknown): void => {
    if (String(path).endsWith('/status.json')) n++;
  };
  fsp.open = ((path: Parameters<typeof open>[0], ...rest: [never?, never?]) => (seen(path), open(path, ...rest))) as typeof open;
  fsp.lstat = ((path: Parameters<typeof lstat>[0], ...rest: [never?]) => (seen(path), lstat(path, ...rest))) as typeof lstat;
  syncBuiltinESMExports();
  return {
    count: () => n,
    stop() {
      fsp.open = open;
      fsp.lstat = lstat;
      syncBuiltinESMExports();
    },
  };
}

async function indexStamp(runsDir: string): Promise<[number, number, number]> {
  const s = await stat(join(runsDir, 'index.json'));
  return [s.ino, s.mtimeMs, s.size];
}

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService | undefined;
let reads: ReturnType<typeof countStatusReads> | undefined;
afterEach(async () => {
  reads?.stop();
  reads = undefined;
  await service?.close();
  service = undefined;
});

describe('fault: an index.json past the 64 MiB it was once capped at', () => {
  beforeAll(async () => {
    folder = await scratchFolder('kde-fault-store-scale-cap-');
  });
  afterAll(async () => folder.remove());

  it('lists every run from it, reading no status file and rewriting nothing', async () => {
    const runsDir = join(folder.path, 'runs');
    await mkdir(runsDir);
    // failed runs with a long reason each (an engine's last words): entries near the longest the index keeps
    const reason = `engine stopped responding: ${'the engine said this and more, '.repeat(120)}`;
    const statuses = runIds(17_500).map(({ id, createdAt }) => finishedStatus(id, {
      createdAt, status: 'failed', error: { name: 'AppError', code: 'RUN_FAILED', message: reason },
    }));
    await writeRuns(runsDir, statuses);
    // the index as the store writes it, built here instead of by 17 500 listings' worth of work
    const lines = [...statuses].reverse().map((s) => JSON.stringify(s));
    await writeFile(join(runsDir, 'index.json'), `{"runs":[\n${lines.join(',\n')}\n]}\n`);
    const before = await indexStamp(runsDir);
    expect(before[2]).toBeGreaterThan(OLD_INDEX_CAP_BYTES);

    reads = countStatusReads();
    service = createProfilerService({ runsDir });
    expect((await service.listRuns()).length).toBe(statuses.length);
    expect(reads.count()).toBe(0);
    expect(await indexStamp(runsDir)).toEqual(before);
    expect(await readdir(runsDir)).not.toContain('index.json.lock');
    const last = await service.listRunPage({ offset: statuses.length - 1, limit: 1 });
    expect(last.total).toBe(statuses.length);
    expect(last.runs.map((r) => r.id)).toEqual([statuses[0]!.id]);
  }, 240_000);
});

describe('fault: a fresh listing of a large runs folder', () => {
  const FINISHED = 600;
  let runsDir: string;
  let finished: RunStatusFile[];
  let orphan: RunStatusFile;

  beforeAll(async () => {
    folder = await scratchFolder('kde-fault-store-scale-');
    runsDir = join(folder.path, 'runs');
    await mkdir(runsDir);
    const ids = runIds(FINISHED + 1);
    finished = ids.slice(0, FINISHED).map(({ id, createdAt }) => finishedStatus(id, { createdAt }));
    await writeRuns(runsDir, finished);
    // the index written as any store leaves it
    await new RunStore(runsDir).init();
    // then a run another process left running when it died, which the index has not heard of
    orphan = finishedStatus(ids[FINISHED]!.id, { createdAt: ids[FINISHED]!.createdAt, status: 'running', ownerPid: DEAD_PID });
    await writeRuns(runsDir, [orphan]);
  }, 120_000);
  afterAll(async () => folder.remove());

  it('reads the status of the run that may have moved on only, answers a page as a slice of the whole order, and lists again reading nothing', async () => {
    reads = countStatusReads();
    service = createProfilerService({ runsDir });
    const page = await service.listRunPage({ offset: 590, limit: 50 });
    expect(reads.count()).toBeLessThanOrEqual(2);
    const all = await service.listRuns();
    expect(page).toEqual({ offset: 590, total: FINISHED + 1, runs: all.slice(590, 640) });
    expect(all[0]).toMatchObject({ id: orphan.id, status: 'failed', error: { message: expect.stringMatching(/^interrupted/) } });
    expect(all.at(-1)?.id).toBe(finished[0]!.id);
    const seen = reads.count();
    const before = await indexStamp(runsDir);
    expect((await service.listRunPage()).runs.map((r: RunIndexEntry) => r.id)).toEqual(all.slice(0, 100).map((r) => r.id));
    expect(reads.count()).toBe(seen);
    expect(await indexStamp(runsDir)).toEqual(before);
  }, 60_000);

  it('refuses a page request out of shape, naming the field', async () => {
    service = createProfilerService({ runsDir });
    await expect(service.listRunPage({ limit: 0 })).rejects.toThrow(/request\.limit/);
    await expect(service.listRunPage({ offset: 1.5 })).rejects.toThrow(/whole numbers/);
    await expect(service.listRunPage({ page: 2 } as never)).rejects.toThrow(/request\.page/);
  });

  it('`list` prints the newest 50 and says how many more there are, and how to see them; --json and --all give every run', async () => {
    const table = await runCliCaptured(folder.path, ['list', '--runs-dir', runsDir]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n').filter((l) => /^\d{8}-\d{6}-/.test(l))).toHaveLength(50);
    expect(table.stdout).toContain(`runs 1–50 of ${FINISHED + 1}, newest first; ${FINISHED + 1 - 50} older: --offset 50 --limit 50 shows the next, --all every run`);
    const tail = await runCliCaptured(folder.path, ['list', '--runs-dir', runsDir, '--offset', String(FINISHED), '--limit', '5']);
    expect(tail.stdout).toContain(finished[0]!.id);
    expect(tail.stdout).toContain(`runs ${FINISHED + 1}–${FINISHED + 1} of ${FINISHED + 1}, newest first`);
    const json = await runCliCaptured(folder.path, ['list', '--runs-dir', runsDir, '--json']);
    expect((JSON.parse(json.stdout) as unknown[]).length).toBe(FINISHED + 1);
    const every = await runCliCaptured(folder.path, ['list', '--runs-dir', runsDir, '--all']);
    expect(every.stdout.split('\n').filter((l) => /^\d{8}-\d{6}-/.test(l))).toHaveLength(FINISHED + 1);
    const both = await runCliCaptured(folder.path, ['list', '--runs-dir', runsDir, '--all', '--limit', '3']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--limit and --all contradict each other/);
  }, 60_000);
});
