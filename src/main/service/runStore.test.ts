import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../shared/config';
import { assertRunId } from '../../shared/runIds';
import { newRunId } from './runIds';
import { INDEX_FILE, RunStore, type RunStatusFile } from './runStore';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });

function status(id: string, s: Partial<RunStatusFile> = {}): RunStatusFile {
  return { id, status: 'completed', createdAt: new Date().toISOString(), dataset: 'preset:tiny', backend: 'wasm', strategies: ['reference'], headline: [], ...s };
}

/** a pid that is certainly not running: beyond any pid_max */
const DEAD_PID = 2 ** 30;

describe('RunStore', () => {
  it('rebuilds the index from the folders in a new instance', async () => {
    const a = new RunStore(dir);
    await a.init();
    const id = newRunId();
    await a.create(status(id), config);
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8'));
    expect(index.runs.map((r: { id: string }) => r.id)).toEqual([id]);
    await rm(join(dir, INDEX_FILE));
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

describe('run ids', () => {
  it('accepts only the generated form, so an id cannot name another path', () => {
    expect(assertRunId(newRunId())).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    for (const bad of ['../etc', '20250101-120000-a1b2c3/..', '', 42, null]) {
      expect(() => assertRunId(bad)).toThrow(/expected a run id/);
    }
  });
});
