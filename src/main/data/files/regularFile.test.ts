import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { writeClusterlessNpz } from '../writers';
import { inspectData, loadDataset } from '../index';
import { loadNpz } from '../clusterlessNpz';
import { loadRecipe } from '../nwb';
import { makePreset } from '../presets';
import { openRegularFile, readRegularText, regularFileStats } from './regularFile';
import { makeFifo, releaseFifo } from '../testing';

let dir: string;
let fifo: string;
let hasFifo = false;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-regular-file-'));
  fifo = join(dir, 'pipe.npz');
  hasFifo = makeFifo(fifo);
  if (!hasFifo) console.warn('skipping the named-pipe tests: no mkfifo on this system');
});
afterAll(async () => {
  if (hasFifo) for (const name of await readdir(dir)) if (name.includes('pipe')) releaseFifo(join(dir, name));
  await rm(dir, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** rejects after `ms`: a read that waits on a pipe would otherwise hang the test until its timeout */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('files a person names are read only when they are regular files', () => {
  it('reads a regular file', async () => {
    const path = join(dir, 'a.recipe.json');
    await writeFile(path, '{"x": 1}');
    expect((await regularFileStats(path)).size).toBe(8);
    expect(await readRegularText(path)).toBe('{"x": 1}');
    const { handle, size } = await openRegularFile(path);
    await handle.close();
    expect(size).toBe(8);
  });

  it('refuses a folder with BAD_ARGUMENT naming the path, in every loader', async () => {
    const folder = join(dir, 'folder.npz');
    await mkdir(folder);
    const e = await failure(regularFileStats(folder));
    expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', `${folder} is a folder, not a file: give the path of a data file (.npz, .nwb) or a recipe (.recipe.json).`]);
    expect((await failure(loadNpz(folder))).code).toBe('BAD_ARGUMENT');
    const nwbFolder = join(dir, 'folder.nwb');
    await mkdir(nwbFolder);
    expect((await failure(loadDataset({ kind: 'file', path: nwbFolder }))).message).toContain(`${nwbFolder} is a folder`);
    const recipeFolder = join(dir, 'folder.nwb.recipe.json');
    await mkdir(recipeFolder);
    expect((await failure(loadRecipe(recipeFolder))).message).toContain(`${recipeFolder} is a folder`);
    const inspection = await inspectData({ kind: 'file', path: folder });
    expect(inspection.findings[0]).toMatchObject({ code: 'BAD_ARGUMENT', severity: 'error', message: expect.stringContaining(`${folder} is a folder`) });
  });

  it('says NOT_FOUND for a missing file, naming it', async () => {
    const e = await failure(readRegularText(join(dir, 'gone.recipe.json')));
    expect([e.code, e.message]).toEqual(['NOT_FOUND', `${join(dir, 'gone.recipe.json')} does not exist: check the path.`]);
  });

  it('refuses a named pipe at once instead of waiting for a writer', async (ctx) => {
    if (!hasFifo) ctx.skip();
    const e = await failure(within(1000, openRegularFile(fifo)));
    expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', expect.stringContaining(`${fifo} is a named pipe, not a file`)]);
    expect((await failure(within(1000, loadNpz(fifo)))).code).toBe('BAD_ARGUMENT');
    const inspection = await within(1000, inspectData({ kind: 'file', path: fifo }));
    expect(inspection.findings[0]).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('is a named pipe') });
    const recipePipe = join(dir, 'pipe.nwb.recipe.json');
    expect(makeFifo(recipePipe)).toBe(true);
    expect((await failure(within(1000, loadRecipe(recipePipe)))).code).toBe('BAD_ARGUMENT');
    const nwbPipe = join(dir, 'pipe.nwb');
    expect(makeFifo(nwbPipe)).toBe(true);
    expect((await failure(within(1000, loadDataset({ kind: 'file', path: nwbPipe })))).message).toContain('is a named pipe');
  });
});

describe('writing a .npz', () => {
  const tiny = makePreset('tiny', { seed: 1, features: 2, featureScale: 1 });
  const small = makePreset('small', { seed: 1, features: 2, featureScale: 1 });

  it('keeps a file already at the path unless told to overwrite, leaving no temporary file', async () => {
    const out = join(dir, 'kept.npz');
    await writeFile(out, 'precious');
    const e = await failure(writeClusterlessNpz(tiny, out));
    expect([e.code, e.message]).toEqual(['EXISTS', expect.stringMatching(/kept\.npz already exists: choose another name, or confirm/)]);
    expect(await readFile(out, 'utf8')).toBe('precious');
    await writeClusterlessNpz(tiny, out, { overwrite: true });
    expect((await loadNpz(out)).electrodes.length).toBe(tiny.electrodes.length);
    await writeClusterlessNpz(small, out, { overwrite: true });
    expect((await loadNpz(out)).electrodes.length).toBe(small.electrodes.length);
    expect((await readdir(dir)).filter((n) => n.startsWith('kept.npz'))).toEqual(['kept.npz']);
  });

  it('writes a new file without overwrite', async () => {
    const out = join(dir, 'fresh.npz');
    await writeClusterlessNpz(tiny, out);
    expect(existsSync(out)).toBe(true);
  });
});
