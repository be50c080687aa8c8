import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import { makeFifo, releaseFifo } from '../data/testing';
import { createProfilerService, type ProfilerService } from './profilerService';

const TINY_NPZ = fileURLToPath(new URL('../../../test/fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const PRESET = { kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 } as const;

let dir: string;
let service: ProfilerService;
const pipes: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-client-paths-'));
  service = createProfilerService({ runsDir: join(dir, 'runs') });
});
afterAll(async () => {
  for (const p of pipes) releaseFifo(p);
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** a named pipe in the test folder; null (and the test skipped, saying why) where mkfifo is missing */
function pipe(name: string, skip: (note: string) => void): string {
  const path = join(dir, name);
  if (!makeFifo(path)) skip('no mkfifo on this system: named pipes cannot be made');
  pipes.push(path);
  return path;
}

/** rejects after `ms`: a read that waits on a pipe would otherwise hang the test until its timeout */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

const run = (path: string): RunConfig => ({
  data: { kind: 'file', path }, backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: false,
});

describe('data files named by a client', () => {
  it('a named pipe given to inspectData is an error within a second, and the service still answers', async (ctx) => {
    const fifo = pipe('pipe.npz', (note) => ctx.skip(note));
    const inspection = await within(1000, service.inspectData({ kind: 'file', path: fifo }));
    expect(inspection.summary).toBeNull();
    expect(inspection.findings[0]).toMatchObject({ code: 'BAD_ARGUMENT', severity: 'error', message: expect.stringContaining(`${fifo} is a named pipe, not a file`) });
    // the threads that read files are all free: a real file is read as before
    const real = await within(5000, service.inspectData({ kind: 'file', path: TINY_NPZ }));
    expect(real.summary?.nElectrodes).toBeGreaterThan(0);
  });

  it('a named pipe given as an NWB file or a recipe is refused without waiting', async (ctx) => {
    const nwb = pipe('pipe.nwb', (note) => ctx.skip(note));
    const inspection = await within(10_000, service.inspectData({ kind: 'file', path: nwb }));
    expect(inspection.findings.find((f) => f.severity === 'error')?.message).toContain(`${nwb} is a named pipe`);
    expect((await failure(within(1000, service.scanData([nwb])))).code).toBe('BAD_ARGUMENT');
    const recipe = pipe('pipe.nwb.recipe.json', (note) => ctx.skip(note));
    expect((await failure(within(1000, service.scanData([recipe])))).message).toContain(`${recipe} is a named pipe`);
  });

  it('a run on a named pipe or a folder is refused before it is queued', async (ctx) => {
    const folder = join(dir, 'folder.npz');
    await mkdir(folder);
    const e = await failure(service.startRun(run(folder)));
    expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', expect.stringContaining(`${folder} is a folder, not a file`)]);
    const inspection = await service.inspectData({ kind: 'file', path: folder });
    expect(inspection.findings[0]).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining(`${folder} is a folder`) });
    const fifo = pipe('run.npz', (note) => ctx.skip(note));
    expect((await failure(within(1000, service.startRun(run(fifo))))).code).toBe('BAD_ARGUMENT');
    expect(await service.listRuns()).toEqual([]);
  });

  it('refuses relative data paths with BAD_ARGUMENT asking for an absolute path', async () => {
    const relative = 'test/fixtures/kde_ref_tiny_seed42_D2.npz';
    const calls = [
      () => service.inspectData({ kind: 'file', path: relative }),
      () => service.estimateMemory(run(relative)),
      () => service.startRun(run(relative)),
      () => service.scanData([relative.replace('.npz', '.nwb')]),
      () => service.exportDataAsNpz({ kind: 'file', path: relative }, join(dir, 'rel.npz')),
      () => service.exportDataAsNpz(PRESET, 'rel.npz'),
    ];
    for (const call of calls) {
      const e = await failure(call());
      expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', expect.stringMatching(/'[^']+' is a relative path; give an absolute path/)]);
    }
  });

  it('passes exportDataAsNpz its overwrite option', async () => {
    const out = join(dir, 'taken.npz');
    await writeFile(out, 'precious');
    expect((await failure(service.exportDataAsNpz(PRESET, out))).code).toBe('EXISTS');
    expect(await readFile(out, 'utf8')).toBe('precious');
    expect((await service.exportDataAsNpz(PRESET, out, { overwrite: true })).outPath).toBe(out);
    expect((await readFile(out)).subarray(0, 2).toString()).toBe('PK');
  });
});
