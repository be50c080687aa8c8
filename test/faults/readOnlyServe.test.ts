/**
 * Fault: web mode on a read-only runs folder (an archived or snapshot folder, which a lab opens
 * read-only). `serve` starts there; a page lists the runs, opens a report and draws a timeline;
 * getInfo says runs cannot start there and why; a start-run request is refused naming the folder,
 * the reason and what to do; the page's Run setup says so and keeps Start disabled (before, Start
 * stayed enabled and the refusal came only once pressed); and not a byte of the folder changes.
 *
 * Root ignores chmod, so as root the folder is a read-only bind mount (EROFS for everyone, the
 * failure the issue saw); as another user, chmod 0555 binds (EACCES). Skipped only as root where
 * nothing can be mounted.
 */
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/wire';
import { startServer, type RunningServer } from '../../src/main/server';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { mountReadOnlyView, unmount } from '../../src/main/service/store/runStoreTesting.testdata';
import { serveUntil } from '../../src/main/cli/serve';
import { capturedIo } from '../../src/main/cli/testing';
import { ensureRendererBuilt, openBrowser, startServe, webTestSkipReason } from '../e2e/harness';
import { presetRun, scratchFolder, waitFor } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let staticDir: string;
let runsDir: string;
let runId: string;
let undo: (() => Promise<void>) | undefined;

/** Records one real run in `dir`, so there is a report and a trace to browse. */
async function recordRun(dir: string): Promise<string> {
  const service = createProfilerService({ runsDir: dir });
  try {
    const { runId: id } = await service.startRun(presetRun('tiny'));
    expect((await service.whenFinished(id)).status).toBe('completed');
    return id;
  } finally {
    await service.close();
  }
}

/** Makes `runsDir` a read-only view of `source`; the reason when this machine cannot. */
async function readOnly(source: string, target: string): Promise<string | undefined> {
  if (process.getuid?.() !== 0) {
    // a non-root user: chmod binds, and the folder is the source itself
    await mkdir(target).catch(() => undefined);
    await chmod(source, 0o555);
    undo = () => chmod(source, 0o755);
    return undefined;
  }
  await mkdir(target);
  const refused = mountReadOnlyView(source, target);
  if (refused) return `running as root, whom chmod does not stop, and no read-only mount can be made here (${refused})`;
  undo = async () => unmount(target);
  return undefined;
}

/** Every file under `dir` with its size and time: what a read-only folder must keep as it is. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const s = await stat(join(dir, name));
    out[name] = `${s.size}:${s.mtimeMs}`;
  }
  return out;
}

beforeEach(async (ctx) => {
  folder = await scratchFolder('kde-fault-read-only-serve-');
  staticDir = join(folder.path, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const source = join(folder.path, 'archive');
  runId = await recordRun(source);
  const viewAt = process.getuid?.() === 0 ? join(folder.path, 'runs') : source;
  const skip = await readOnly(source, viewAt);
  if (skip) ctx.skip(skip);
  runsDir = viewAt;
}, 120_000);
afterEach(async () => {
  await undo?.();
  undo = undefined;
  await folder.remove();
});

interface Page {
  call(method: string, params?: unknown[]): Promise<ServerMessage & { kind: 'result' }>;
  close(): void;
}

async function openPage(s: { port: number; token: string }): Promise<Page> {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { origin: `http://127.0.0.1:${s.port}` });
  const answers = new Map<number, ServerMessage & { kind: 'result' }>();
  ws.on('message', (d) => {
    const m = JSON.parse((d as Buffer).toString('utf8')) as ServerMessage;
    if (m.kind === 'result') answers.set(m.id, m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  let nextId = 1;
  return {
    call(method, params = []) {
      const id = nextId++;
      ws.send(JSON.stringify({ kind: 'call', id, method, params }));
      return waitFor(`the answer to ${method}`, () => answers.get(id), 60_000);
    },
    close: () => ws.terminate(),
  };
}

const readOnlyReason = (dir: string) => new RegExp(
  `^the runs folder ${dir} is not writable \\((EROFS\\): it is on a read-only disk or mount|(EACCES|EPERM)\\): it is read-only to this user)\\. ` +
  'Its runs can be browsed, but no run can start there\\. To run, copy the folder somewhere writable and open the copy, or choose a writable folder with --runs-dir\\.$',
);

describe('fault: web mode on a read-only runs folder', () => {
  it('browses the runs, says runs cannot start there, and refuses a start naming the folder and what to do', async () => {
    const before = await snapshot(runsDir);
    let service: ProfilerService | undefined;
    let server: RunningServer | undefined;
    try {
      service = createProfilerService({ runsDir, servesPages: true });
      server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir, log: () => undefined });
      const page = await openPage(server);
      expect(await page.call('listRuns')).toMatchObject({ ok: true, result: [expect.objectContaining({ id: runId, status: 'completed' })] });
      expect(await page.call('getRun', [runId])).toMatchObject({ ok: true, result: { report: expect.objectContaining({ status: 'completed' }) } });
      const timeline = await page.call('getTimeline', [runId, { startUs: 0, endUs: 1e12, widthPx: 800 }]);
      expect(timeline).toMatchObject({ ok: true, result: { spans: expect.arrayContaining([expect.anything()]) } });

      const info = await page.call('getInfo');
      expect(info).toMatchObject({ ok: true, result: { runsFolder: { path: runsDir, canStartRuns: false, code: expect.stringMatching(/^(EROFS|EACCES|EPERM)$/) } } });
      expect((info as { result: { runsFolder: { reason: string } } }).result.runsFolder.reason).toMatch(readOnlyReason(runsDir));

      const refused = await page.call('startRun', [presetRun('tiny')]);
      expect(refused).toMatchObject({ ok: false, error: { code: 'IO', message: expect.stringMatching(readOnlyReason(runsDir)) } });
      page.close();
    } finally {
      await server?.close();
      await service?.close();
    }
    expect(await snapshot(runsDir)).toEqual(before);
  }, 60_000);

  it('`serve` starts on it, serves the page, and says runs cannot start there', async () => {
    const t = capturedIo(folder.path);
    let stop: (reason: string) => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    const done = serveUntil(['--static-dir', staticDir, '--runs-dir', runsDir, '--no-browser'], t.io, () => {
      started();
      return new Promise((r) => (stop = r));
    });
    await Promise.race([running, done]);
    const url = /web mode: (\S+)/.exec(t.out())?.[1];
    expect(url, t.err()).toBeDefined();
    expect((await fetch(url!)).status).toBe(200);
    expect(t.err() + t.out()).toMatch(/no run can start there\. To run, copy the folder somewhere writable/);
    stop('test over');
    expect(await done).toBe(0);
  }, 60_000);

  it('Run setup in the page says why runs cannot start there, and keeps Start disabled', async (ctx) => {
    const noBrowser = webTestSkipReason();
    if (noBrowser) return ctx.skip(noBrowser);
    const before = await snapshot(runsDir);
    ensureRendererBuilt();
    const serve = await startServe({ runsDir });
    try {
      const session = await openBrowser(serve.url);
      try {
        const { page } = session;
        const soon = { timeout: 30_000 };
        await page.getByTestId('load-preset').click();
        await page.getByTestId('nav-setup').click();
        await expect.poll(() => page.getByTestId('runs-folder-refusal').count(), soon).toBe(1);
        expect(await page.getByTestId('runs-folder-refusal').textContent()).toMatch(/not writable \((EROFS|EACCES|EPERM)\).*no run can start there\. To run, copy the folder/);
        await expect.poll(async () => (await page.getByTestId('start-blocker').textContent()) ?? '', soon)
          .toMatch(new RegExp(`^No run can start in the runs folder ${runsDir} \\((EROFS|EACCES|EPERM)\\)\\.$`));
        expect(await page.getByTestId('start-run').isDisabled()).toBe(true);
        await session.screenshot('read-only-run-setup');
      } finally {
        await session.close();
      }
    } finally {
      await serve.stop();
    }
    expect(await snapshot(runsDir)).toEqual(before);
  }, 300_000);
});
