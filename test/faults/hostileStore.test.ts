/**
 * Fault: files in the runs folder that the store did not write. A status.json that is a named pipe,
 * a link to /dev/zero or to a file outside, 100 000 levels deep, or of the wrong shape
 * (createdAt: 12345); an index.json, its journal and its lock that are pipes. Before, listing hung on a pipe,
 * read /dev/zero until memory ran out, failed for every run on a deep or ill-typed status, and
 * export printed whatever a run's report.md or trace linked to. Now each damaged run is listed as
 * failed ("damaged") with the reason, the other runs read and a new run completes, and export
 * refuses a report or trace that is a link.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFifo, releaseFifo } from '../../src/main/data/testing';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { finishedStatus } from '../../src/main/service/store/runStoreTesting.testdata';
import { capturedIo, runCliCaptured } from '../../src/main/cli/testing';
import { printRunLink, SERVE_INFO_FILE } from '../../src/main/cli/serverLink';
import { presetRun, scratchFolder } from './faultKit';

const ANSWER_WITHIN_MS = 5000;
const SECRET = 'root:secret-hash-that-must-not-leave\n';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let service: ProfilerService;
const fifos: string[] = [];
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-hostile-store-');
  runsDir = join(folder.path, 'runs');
  service = createProfilerService({ runsDir });
});
afterEach(async () => {
  for (const f of fifos.splice(0)) releaseFifo(f);
  await service.close();
  await folder.remove();
});

/** a run folder holding `status` as its status.json (text, or a function making the file) */
async function runWith(id: string, status: string | ((path: string) => Promise<void>)): Promise<void> {
  await mkdir(join(runsDir, id), { recursive: true });
  const path = join(runsDir, id, 'status.json');
  if (typeof status === 'string') await writeFile(path, status);
  else await status(path);
}

async function fifoAt(path: string): Promise<void> {
  await rm(path, { force: true });
  if (!makeFifo(path)) throw new Error(`mkfifo ${path} failed`);
  fifos.push(path);
}

async function within<T>(what: string, call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS); });
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('fault: hostile files in the runs folder', () => {
  it('lists each damaged run with its reason, and the rest of the store works', async (ctx) => {
    if (!makeFifo(join(folder.path, 'probe'))) return ctx.skip('no mkfifo on this system');
    const outside = join(folder.path, 'outside.json');
    await writeFile(outside, JSON.stringify(finishedStatus('20250101-000005-aaaaa5')));
    await runWith('20250101-000000-aaaaa0', JSON.stringify(finishedStatus('20250101-000000-aaaaa0')));
    await writeFile(join(runsDir, '20250101-000000-aaaaa0', 'config.json'), JSON.stringify(presetRun('tiny')));
    await runWith('20250101-000001-aaaaa1', fifoAt);
    await runWith('20250101-000002-aaaaa2', (p) => symlink('/dev/zero', p));
    await runWith('20250101-000003-aaaaa3', '['.repeat(100_000) + ']'.repeat(100_000));
    await runWith('20250101-000004-aaaaa4', JSON.stringify({ ...finishedStatus('20250101-000004-aaaaa4'), createdAt: 12345 }));
    await runWith('20250101-000005-aaaaa5', (p) => symlink(outside, p));
    await fifoAt(join(runsDir, 'index.json'));
    await fifoAt(join(runsDir, 'index.json.lock'));
    await fifoAt(join(runsDir, 'index.journal.ndjson'));

    const listed = await within('listRuns', service.listRuns());
    const byId = new Map(listed.map((r) => [r.id, r]));
    expect(byId.get('20250101-000000-aaaaa0')?.status).toBe('completed');
    const reasons: Record<string, RegExp> = {
      '20250101-000001-aaaaa1': /named pipe/, '20250101-000002-aaaaa2': /symbolic link/, '20250101-000003-aaaaa3': /nests deeper than/,
      '20250101-000004-aaaaa4': /createdAt is 12345/, '20250101-000005-aaaaa5': /symbolic link/,
    };
    for (const [id, reason] of Object.entries(reasons)) {
      const entry = byId.get(id);
      expect(entry?.status, id).toBe('failed');
      expect(entry?.error?.message, id).toMatch(/^damaged: /);
      expect(entry?.error?.message, id).toMatch(reason);
      expect(entry?.error?.message, id).not.toContain('secret');
    }
    expect((await within('getRun', service.getRun('20250101-000000-aaaaa0'))).entry.status).toBe('completed');
    const { runId } = await within('startRun', service.startRun(presetRun('tiny')));
    expect((await service.whenFinished(runId)).status).toBe('completed');
    expect((await within('listRuns again', service.listRuns())).find((r) => r.id === runId)?.status).toBe('completed');
  }, 120_000);

  it('refuses to export a report or trace that is a link to a file outside the run', async () => {
    const secret = join(folder.path, 'shadow');
    await writeFile(secret, SECRET);
    const { runId } = await service.startRun(presetRun('tiny'));
    expect((await service.whenFinished(runId)).status).toBe('completed');
    for (const name of ['report.md', 'report.csv', 'trace.json.gz']) {
      await rm(join(runsDir, runId, name));
      await symlink(secret, join(runsDir, runId, name));
    }
    for (const format of ['md', 'csv', 'trace', 'trace-json'] as const) {
      const said = await service.exportRun(runId, format).then((r) => Buffer.from(r.base64 ?? '', 'base64').toString('utf8'), (e: Error) => `refused: ${e.message}`);
      expect(said, format).toMatch(/^refused: .*symbolic link/);
      expect(said, format).not.toContain('secret-hash');
    }
    await service.close();
    const cli = await runCliCaptured(folder.path, ['export', runId, '--format', 'md', '--runs-dir', runsDir]);
    expect(cli.code).not.toBe(0);
    expect(cli.stdout + cli.stderr).not.toContain('secret-hash');
    expect(cli.stderr).toContain('symbolic link');
    expect(await readFile(secret, 'utf8')).toBe(SECRET);
  }, 120_000);
});

describe('fault: a named pipe where the CLI reads a file', () => {
  it('compare refuses a pipe named as a report, and a pipe as .serve.json does not stop a run\'s link', async (ctx) => {
    const pipe = join(folder.path, 'report.json');
    if (!makeFifo(pipe)) return ctx.skip('no mkfifo on this system');
    fifos.push(pipe);
    const r = await within('compare', runCliCaptured(folder.path, ['compare', pipe, pipe, '--runs-dir', runsDir]));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('named pipe');
    await mkdir(runsDir, { recursive: true });
    await fifoAt(join(runsDir, SERVE_INFO_FILE));
    const { io, err } = capturedIo(folder.path);
    await within('printRunLink', printRunLink(io, runsDir, '20250101-000000-aaaaa0', 'results'));
    expect(err()).not.toContain('http');
  }, 60_000);

  it('refuses a pipe as a run\'s events when its trace is rebuilt, as a refused file (exit 2), not a failure of the machine', async (ctx) => {
    if (!makeFifo(join(folder.path, 'probe'))) return ctx.skip('no mkfifo on this system');
    const { runId } = await service.startRun(presetRun('tiny'));
    expect((await service.whenFinished(runId)).status).toBe('completed');
    await rm(join(runsDir, runId, 'trace.json.gz'));
    await fifoAt(join(runsDir, runId, 'events.ndjson'));
    // a fresh process, which has no index of the run in memory
    await service.close();
    const r = await within('export', runCliCaptured(folder.path, ['export', runId, '--format', 'trace-json', '--runs-dir', runsDir]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kde-profiler export: trace events file .*events\.ndjson is not a regular file/);
  }, 60_000);
});
