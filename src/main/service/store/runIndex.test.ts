import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunIndexEntry } from '../../../shared/api';
import { INDEX_FILE, MAX_INDEX_ENTRY_BYTES, updateIndex } from './runIndex';
import { RunStore } from './runStore';
import { newRunId } from './runIds';
import { INDEX_JOURNAL_FILE } from './indexJournal';
import { finishedStatus, indexedEntries } from './runStoreTesting.testdata';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-index-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** what the index lists: index.json with its journal applied */
async function index(): Promise<RunIndexEntry[]> {
  return indexedEntries(dir);
}

async function runFolder(s: Partial<RunIndexEntry> = {}): Promise<RunIndexEntry> {
  const id = newRunId();
  await mkdir(join(dir, id));
  return finishedStatus(id, s);
}

describe('updateIndex', () => {
  it('keeps what others wrote: a put adds one run to the runs already there', async () => {
    const [a, b] = [await runFolder(), await runFolder()];
    await updateIndex(dir, { put: [a] });
    await updateIndex(dir, { put: [b] });
    expect((await index()).map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('never moves a run back from what its folder said earlier', async () => {
    const done = await runFolder();
    await updateIndex(dir, { put: [done] });
    await updateIndex(dir, { seen: [{ ...done, status: 'running' }] });
    expect((await index())[0]!.status).toBe('completed');
    const running = await runFolder({ status: 'running' });
    await updateIndex(dir, { put: [running] });
    await updateIndex(dir, { seen: [{ ...running, status: 'failed' }] });
    expect((await index()).find((e) => e.id === running.id)!.status).toBe('failed');
  });

  it('drops runs whose folders are gone, and does not bring back a run deleted meanwhile', async () => {
    const [kept, gone] = [await runFolder(), await runFolder()];
    await updateIndex(dir, { put: [kept, gone] });
    await rm(join(dir, gone.id), { recursive: true });
    await updateIndex(dir, { put: [gone] });
    expect((await index()).map((e) => e.id)).toEqual([kept.id]);
    await writeFile(join(dir, INDEX_FILE), JSON.stringify({ runs: [kept, gone] }));
    await updateIndex(dir, { seen: [kept], prune: true });
    expect((await index()).map((e) => e.id)).toEqual([kept.id]);
  });

  it('rebuilds a malformed index from the runs it is told of', async () => {
    const run = await runFolder();
    await writeFile(join(dir, INDEX_FILE), '{"runs": [ broken');
    await updateIndex(dir, { seen: [run], prune: true });
    expect(await index()).toEqual([run]);
  });

  it('writes nothing when the index already says so, and an owner\'s put only to the journal', async () => {
    const run = await runFolder();
    await updateIndex(dir, { seen: [run], prune: true });
    const before = await stat(join(dir, INDEX_FILE));
    await updateIndex(dir, { seen: [run], prune: true });
    await updateIndex(dir, { put: [run] });
    const after = await stat(join(dir, INDEX_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await readFile(join(dir, INDEX_JOURNAL_FILE), 'utf8')).split('\n')).toHaveLength(2);
    // the journal adds nothing the index lacks: a listing that finds it so writes nothing either
    await updateIndex(dir, { seen: [run], prune: true });
    expect((await stat(join(dir, INDEX_FILE))).ino).toBe(before.ino);
  });

  it('writes one compact entry a line, with the listing\'s fields only, in one order whoever wrote them', async () => {
    const run = await runFolder({ label: 'a label' });
    const { label, ...rest } = run;
    const owned = { ...rest, ownerPid: 4242, label } as RunIndexEntry;
    await updateIndex(dir, { put: [owned] });
    const journal = (await readFile(join(dir, INDEX_JOURNAL_FILE), 'utf8')).split('\n');
    expect(journal).toEqual([expect.stringMatching(/^\{"put":\{"id":"[^"]+","status":"completed","createdAt":.*"label":"a label","dataset".*\}\}$/), '']);
    expect(journal[0]).not.toContain('ownerPid');
    // a listing's refresh that finds a run the index lacks writes it whole, the journal folded in
    await updateIndex(dir, { seen: [{ ...owned, id: (await runFolder()).id }], prune: true });
    expect(await readdir(dir)).not.toContain(INDEX_JOURNAL_FILE);
    const lines = (await readFile(join(dir, INDEX_FILE), 'utf8')).split('\n');
    expect(lines).toEqual(['{"runs":[', ...Array.from({ length: 2 }, () => expect.stringMatching(/^\{"id":"[^"]+","status":"completed","createdAt":.*"label":"a label","dataset"/)), ']}', '']);
    expect(lines.join('\n')).not.toContain('ownerPid');
  });

  it('leaves out an entry longer than it keeps: the run is listed from its status file', async () => {
    const store = new RunStore(dir);
    await store.init();
    const long = finishedStatus(newRunId(), { error: { name: 'AppError', code: 'RUN_FAILED', message: 'x'.repeat(MAX_INDEX_ENTRY_BYTES) }, status: 'failed' });
    const short = finishedStatus(newRunId());
    await store.create(long, {} as never);
    await store.create(short, {} as never);
    expect((await index()).map((e) => e.id)).toEqual([short.id]);
    const fresh = new RunStore(dir);
    await fresh.init();
    expect(fresh.list().map((e) => e.id).sort()).toEqual([long.id, short.id].sort());
  });
});

describe('a store reading index.json', () => {
  it('rebuilds an entry of the wrong shape from the run\'s status file', async () => {
    const run = await runFolder();
    await writeFile(join(dir, run.id, 'status.json'), JSON.stringify(run));
    await writeFile(join(dir, INDEX_FILE), JSON.stringify({ runs: [{ ...run, createdAt: 12345, dataset: 'from the index' }] }));
    const store = new RunStore(dir);
    await store.init();
    expect(store.list()).toEqual([run]);
    expect(await index()).toEqual([run]);
  });

  it('takes a finished run from the index, but reads again a run it lists as running', async () => {
    const [done, running] = [await runFolder({ dataset: 'done' }), { ...(await runFolder({ status: 'running' })), ownerPid: 2 ** 30 }];
    for (const r of [done, running]) await writeFile(join(dir, r.id, 'status.json'), JSON.stringify(r));
    await writeFile(join(dir, INDEX_FILE), JSON.stringify({ runs: [{ ...done, dataset: 'as the index says' }, running] }));
    const store = new RunStore(dir);
    await store.init();
    const listed = new Map(store.list().map((e) => [e.id, e]));
    expect(listed.get(done.id)?.dataset).toBe('as the index says');
    // its owner is gone: read from its folder, it is interrupted
    expect(listed.get(running.id)).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/^interrupted/) } });
  });
});
