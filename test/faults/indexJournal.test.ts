/**
 * Fault: the run index under status writes. Before, every status write read index.json whole,
 * listed the runs folder and wrote index.json whole again (about a second at 100 000 runs, for a
 * run's every status). Now a status write appends one line to index.journal.ndjson under the
 * index's lock, reading nothing of the index, and the journal is folded into index.json once it
 * has outgrown its share of it. The index stays whole under writers in several processes and
 * after a writer is killed at any moment: mid-append (a torn last line), between a compaction's
 * new index.json and its removal of the journal, or anywhere else.
 *
 * Work is counted, not timed: the files opened and the folders listed, by wrapping fs.promises.
 */
import { spawn } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { appendFile, copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../src/shared/config';
import { newRunId, RunStore, type RunStatusFile } from '../../src/main/service/store';
import { INDEX_JOURNAL_FILE } from '../../src/main/service/store/indexJournal';
import {
  finishedStatus, indexedEntries, runIdsInOrder, runWorker, writeRunFolders,
} from '../../src/main/service/store/runStoreTesting.testdata';
import { REPO_ROOT, scratchFolder, waitFor } from './faultKit';

const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
const WORKER = join(REPO_ROOT, 'src/main/service/store/runStoreWorker.testdata.ts');
const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });

/** Records the paths opened and the folders listed from now until stop(). */
function watchFiles(): { opened: string[]; listed: string[]; stop(): void } {
  const { open, readdir: list } = fsp;
  const seen = { opened: [] as string[], listed: [] as string[] };
  fsp.open = ((path: Parameters<typeof open>[0], ...rest: [never?, never?]) => (seen.opened.push(String(path)), open(path, ...rest))) as typeof open;
  fsp.readdir = ((path: Parameters<typeof list>[0], ...rest: [never?]) => (seen.listed.push(String(path)), list(path, ...rest))) as typeof list;
  syncBuiltinESMExports();
  return {
    ...seen,
    stop() {
      fsp.open = open;
      fsp.readdir = list;
      syncBuiltinESMExports();
    },
  };
}

async function stamp(path: string): Promise<string> {
  const s = await stat(path);
  return `${s.ino}:${s.mtimeMs}:${s.size}`;
}

/** Every run a fresh store lists, against what its status file says: the index may only ever agree with the folders. */
async function expectIndexAgreesWithFolders(runsDir: string): Promise<void> {
  const indexed = await indexedEntries(runsDir);
  const store = new RunStore(runsDir);
  await store.init();
  const listed = new Map(store.list().map((e) => [e.id, e]));
  for (const id of (await readdir(runsDir)).filter((n) => /^\d{8}-/.test(n))) {
    const status = await readFile(join(runsDir, id, 'status.json'), 'utf8').then((t) => JSON.parse(t) as RunStatusFile, () => undefined);
    // a run whose status was not yet written when its writer was killed is being created: not listed
    if (status) expect(listed.get(id)?.status, id).toBe(status.status);
  }
  for (const entry of indexed) expect(listed.get(entry.id)?.status, `the index's ${entry.id}`).toBe(entry.status);
}

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let watch: ReturnType<typeof watchFiles> | undefined;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-index-journal-');
  runsDir = join(folder.path, 'runs');
  await mkdir(runsDir);
});
afterEach(async () => {
  watch?.stop();
  watch = undefined;
  await folder.remove();
});

describe('fault: status writes on a large runs folder', () => {
  it('leave index.json as it is and read none of it: one line of the journal each, which every reader applies', async () => {
    const statuses = runIdsInOrder(3000).map(({ id, createdAt }) => finishedStatus(id, { createdAt }));
    await writeRunFolders(runsDir, statuses);
    const store = new RunStore(runsDir);
    await store.init();
    const index = join(runsDir, 'index.json');
    const before = await stamp(index);

    const id = newRunId();
    watch = watchFiles();
    await store.create(finishedStatus(id, { status: 'running' }), config);
    await store.writeStatus(finishedStatus(id, { status: 'completed', label: 'the last word' }));
    watch.stop();
    expect(await stamp(index)).toBe(before);
    expect(watch.opened.filter((p) => p.endsWith('/index.json'))).toEqual([]);
    expect(watch.listed).toEqual([]);
    expect((await readFile(join(runsDir, INDEX_JOURNAL_FILE), 'utf8')).trim().split('\n')).toHaveLength(2);

    const listed = await indexedEntries(runsDir);
    expect(listed).toHaveLength(3001);
    expect(listed[0]).toMatchObject({ id, status: 'completed', label: 'the last word' });
    await expectIndexAgreesWithFolders(runsDir);
  }, 120_000);
});

describe('fault: the journal after a writer was killed', () => {
  it('skips a torn last line, and the next write starts on a line of its own', async () => {
    const store = new RunStore(runsDir);
    await store.init();
    const [torn, next] = [newRunId(), newRunId()];
    await store.create(finishedStatus(torn, { status: 'running', ownerPid: process.pid, ownerStore: store.storeId }), config);
    store.markActive(torn, true);
    // what a writer killed halfway through appending its run's final entry leaves
    const line = JSON.stringify({ put: finishedStatus(torn, { status: 'completed' }) });
    await appendFile(join(runsDir, INDEX_JOURNAL_FILE), line.slice(0, line.length >> 1));
    expect((await indexedEntries(runsDir)).find((e) => e.id === torn)?.status).toBe('running');

    await store.create(finishedStatus(next), config);
    const lines = (await readFile(join(runsDir, INDEX_JOURNAL_FILE), 'utf8')).split('\n');
    expect(lines.at(-2)).toMatch(new RegExp(`^\\{"put":\\{"id":"${next}"`));
    expect((await indexedEntries(runsDir)).map((e) => e.id).sort()).toEqual([torn, next].sort());
    await expectIndexAgreesWithFolders(runsDir);
  });

  it('reads the same when a compaction was killed after writing index.json and before removing the journal', async () => {
    const store = new RunStore(runsDir);
    await store.init();
    const journal = join(runsDir, INDEX_JOURNAL_FILE);
    const aside = join(folder.path, 'journal-at-removal');
    // the journal as it is when the compaction removes it: what a kill just before the removal leaves
    const { rm } = fsp;
    let compacted = false;
    fsp.rm = (async (path: Parameters<typeof rm>[0], ...rest: [never?]) => {
      if (String(path) === journal && !compacted) {
        await copyFile(journal, aside);
        compacted = true;
      }
      return rm(path, ...rest);
    }) as typeof rm;
    syncBuiltinESMExports();
    try {
      for (let i = 0; !compacted; i++) {
        expect(i, 'the journal was never compacted').toBeLessThan(5000);
        await store.create(finishedStatus(newRunId(), { label: `run ${i}` }), config);
      }
    } finally {
      fsp.rm = rm;
      syncBuiltinESMExports();
    }
    const folded = await indexedEntries(runsDir);
    expect(await readdir(runsDir)).not.toContain(INDEX_JOURNAL_FILE);
    await copyFile(aside, journal);
    expect(await indexedEntries(runsDir)).toEqual(folded);
    await store.create(finishedStatus(newRunId()), config);
    expect(await indexedEntries(runsDir)).toHaveLength(folded.length + 1);
    await expectIndexAgreesWithFolders(runsDir);
  }, 120_000);

  it('stays whole when its writer is killed at any moment, and takes the next writer', async () => {
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER, 'add', runsDir, '100000'], { cwd: REPO_ROOT, stdio: 'ignore' });
      const journalLines = async () => (await readFile(join(runsDir, INDEX_JOURNAL_FILE), 'utf8').catch(() => '')).split('\n').length;
      // each round stops the writer at another place in its cycle of appends and compactions
      await waitFor('the writer to add runs', async () => ((await journalLines()) > 40 + 97 * round ? true : undefined), 60_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await expectIndexAgreesWithFolders(runsDir);
    }
    const store = new RunStore(runsDir);
    await store.init();
    const last = newRunId();
    await store.create(finishedStatus(last), config);
    expect((await indexedEntries(runsDir)).some((e) => e.id === last)).toBe(true);
  }, 240_000);
});

describe('fault: writers in several processes', () => {
  const PER_WRITER = 250;

  it(`three processes adding ${PER_WRITER} runs each at once, through compactions, leave every run in the index`, async () => {
    const results = await Promise.all(Array.from({ length: 3 }, () => runWorker(['add', runsDir, String(PER_WRITER)])));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const added = results.flatMap((r) => JSON.parse(r.stdout) as string[]);
    expect(added).toHaveLength(3 * PER_WRITER);
    // three processes' lines outgrow the journal's share: it was folded into index.json on the way
    const folded = await readFile(join(runsDir, 'index.json'), 'utf8');
    expect(added.filter((id) => folded.includes(id)).length).toBeGreaterThan(0);
    expect((await indexedEntries(runsDir)).map((e) => e.id).sort()).toEqual([...added].sort());
    await expectIndexAgreesWithFolders(runsDir);
    expect(await readdir(runsDir)).not.toContain('index.json.lock');
  }, 120_000);
});
