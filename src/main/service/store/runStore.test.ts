import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { assertRunId } from '../../../shared/runIds';
import { newRunId } from './runIds';
import { INDEX_FILE, RunStore, type RunStatusFile } from './runStore';
import { INDEX_JOURNAL_FILE } from './indexJournal';
import { DEAD_PID, finishedStatus, indexedEntries, runWorker } from './runStoreTesting.testdata';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });

const status = finishedStatus;

async function indexIds(): Promise<string[]> {
  return (await indexedEntries(dir)).map((r) => r.id);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** a run left in the folder as `owner` wrote it while running it */
async function runningRun(owner: Partial<RunStatusFile>): Promise<string> {
  const id = newRunId();
  await mkdir(join(dir, id));
  await writeFile(join(dir, id, 'status.json'), JSON.stringify(status(id, { status: 'running', ...owner })));
  return id;
}

describe('RunStore', () => {
  it('rebuilds the index from the folders in a new instance', async () => {
    const a = new RunStore(dir);
    await a.init();
    const id = newRunId();
    await a.create(status(id), config);
    expect(await indexIds()).toEqual([id]);
    await rm(join(dir, INDEX_FILE));
    await rm(join(dir, INDEX_JOURNAL_FILE));
    const b = new RunStore(dir);
    await b.init();
    expect(b.list().map((r) => r.id)).toEqual([id]);
    expect(JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')).runs).toHaveLength(1);
  });

  it('lists a run whose owner is gone as failed, interrupted', async () => {
    const id = newRunId();
    await mkdir(join(dir, id));
    await writeFile(join(dir, id, 'status.json'), JSON.stringify(status(id, { status: 'running', ownerPid: DEAD_PID })));
    const store = new RunStore(dir);
    await store.init();
    const [entry] = store.list();
    expect(entry!.status).toBe('failed');
    expect(entry!.error!.message).toMatch(/^interrupted/);
    expect(JSON.parse(await readFile(join(dir, id, 'status.json'), 'utf8')).status).toBe('failed');
  });

  it('leaves a run alone while its owner process lives', async () => {
    const id = newRunId();
    await mkdir(join(dir, id));
    // the test runner's parent is alive and is not this process
    await writeFile(join(dir, id, 'status.json'), JSON.stringify(status(id, { status: 'running', ownerPid: process.ppid })));
    const store = new RunStore(dir);
    await store.init();
    expect(store.list()[0]!.status).toBe('running');
  });

  it('ignores folders that are not runs and removes deleted ones', async () => {
    await mkdir(join(dir, 'not-a-run'));
    const store = new RunStore(dir);
    await store.init();
    const id = newRunId();
    await store.create(status(id), config);
    expect(store.list()).toHaveLength(1);
    await store.delete(id);
    expect(store.list()).toHaveLength(0);
  });
});

describe('deleting a run', () => {
  it('refuses a run another live process is running, naming its pid and what to do', async () => {
    // the test runner's parent is alive and is not this process
    const id = await runningRun({ ownerPid: process.ppid });
    const store = new RunStore(dir);
    await store.init();
    const refused = await store.delete(id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toBe(`run ${id} is running in process ${process.ppid}: stop it there (or wait for it to finish), then delete it.`);
    expect(await exists(join(dir, id, 'status.json'))).toBe(true);
    expect(store.list().map((r) => r.id)).toEqual([id]);
  });

  it('refuses a run another service in this process is running', async () => {
    const owner = new RunStore(dir);
    await owner.init();
    const id = newRunId();
    owner.markActive(id, true);
    await owner.create(status(id, { status: 'running', ownerPid: process.pid, ownerStore: owner.storeId }), config);
    const other = new RunStore(dir);
    await other.init();
    await expect(other.delete(id)).rejects.toThrow(`run ${id} is running in another service in this process (pid ${process.pid})`);
    expect(await exists(join(dir, id))).toBe(true);
    // its owner may: the service cancels the run first
    await owner.delete(id);
    expect(await exists(join(dir, id))).toBe(false);
  });

  it('deletes a run whose owner is dead, and a finished run', async () => {
    const orphan = await runningRun({ ownerPid: DEAD_PID });
    const finished = newRunId();
    const store = new RunStore(dir);
    await store.init();
    await store.create(status(finished, { ownerPid: process.ppid }), config);
    await store.delete(orphan);
    await store.delete(finished);
    expect((await readdir(dir)).sort()).toEqual([INDEX_FILE, INDEX_JOURNAL_FILE].sort());
    expect(await indexIds()).toEqual([]);
  });
});

describe('two writers on one runs folder', () => {
  const PER_WRITER = 50;

  async function addRuns(store: RunStore, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = newRunId();
      await store.create(status(id), config);
      ids.push(id);
    }
    return ids;
  }

  it(`two stores adding ${PER_WRITER} runs each at once leave all of them in index.json`, async () => {
    const [a, b] = [new RunStore(dir), new RunStore(dir)];
    await Promise.all([a.init(), b.init()]);
    const added = (await Promise.all([addRuns(a, PER_WRITER), addRuns(b, PER_WRITER)])).flat();
    expect((await indexIds()).sort()).toEqual([...added].sort());
    const fresh = new RunStore(dir);
    await fresh.init();
    expect(fresh.list()).toHaveLength(2 * PER_WRITER);
    expect(await readdir(dir)).not.toContain(`${INDEX_FILE}.lock`);
  });

  it(`two processes adding ${PER_WRITER} runs each at once leave all of them in index.json`, async () => {
    const results = await Promise.all([runWorker(['add', dir, String(PER_WRITER)]), runWorker(['add', dir, String(PER_WRITER)])]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const added = results.flatMap((r) => JSON.parse(r.stdout) as string[]);
    expect(added).toHaveLength(2 * PER_WRITER);
    expect((await indexIds()).sort()).toEqual([...added].sort());
    const fresh = new RunStore(dir);
    await fresh.init();
    expect(fresh.list()).toHaveLength(2 * PER_WRITER);
  }, 60_000);
});

describe("a run written before the posterior's method had its name", () => {
  it('loads: its config and report come back under today\'s names (methods, method)', async () => {
    const store = new RunStore(dir);
    await store.init();
    const id = newRunId();
    await store.create(status(id), config);
    await writeFile(join(dir, id, 'config.json'), JSON.stringify({ ...config, posterior: { model: 'decoder', strategies: ['dense', 'structured'] } }));
    const posterior = { model: 'decoder', strategy: 'structured', strategies: [{ strategy: 'dense', filterMs: 2, smoothMs: 3, maxAbsDiffToFirst: 0 }] };
    await writeFile(join(dir, id, 'report.json'), JSON.stringify({ config: { posterior: { model: 'decoder', strategies: ['dense'] } }, posterior }));
    expect((await store.config(id)).posterior).toEqual({ model: 'decoder', methods: ['dense', 'structured'] });
    const report = await store.report(id);
    expect(report?.config.posterior).toEqual({ model: 'decoder', methods: ['dense'] });
    expect(report?.posterior).toEqual({ model: 'decoder', method: 'structured', methods: [{ method: 'dense', filterMs: 2, smoothMs: 3, maxAbsDiffToFirst: 0 }] });
  });
});

describe('run ids', () => {
  it('accepts only the generated form, so an id cannot name another path', () => {
    expect(assertRunId(newRunId())).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    for (const bad of ['../etc', '20250101-120000-a1b2c3/..', '', 42, null]) {
      expect(() => assertRunId(bad)).toThrow(/expected a run id/);
    }
  });
});
