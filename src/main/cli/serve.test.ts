import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand, serveUntil, startWebMode } from './serve';
import { runningServer, SERVE_INFO_FILE } from './serverLink';
import { capturedIo } from './testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-serve-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>x</title>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function io() {
  return capturedIo(dir);
}

describe('kde-profiler serve', () => {
  it('says in one line that the renderer must be built when it is not', async () => {
    const t = io();
    const code = await serveCommand.run(['--static-dir', 'nowhere', '--runs-dir', 'runs'], t.io);
    expect(code).toBe(1);
    expect(t.err().trim().split('\n')).toHaveLength(1);
    expect(t.err()).toContain('npm run build');
  });

  it('refuses a malformed port', async () => {
    await expect(serveCommand.run(['--port', 'abc'], io().io)).rejects.toThrow(/--port/);
  });

  it('serves the page with the token on 127.0.0.1 and stops cleanly', async () => {
    const handle = await startWebMode({ runsDir: join(dir, 'runs'), staticDir: join(dir, 'static') });
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    expect((await fetch(handle.url)).status).toBe(200);
    // the page needs no token (the WebSocket does, see server.test.ts)
    expect((await fetch(new URL('/', handle.url))).status).toBe(200);
    await handle.close();
    await expect(fetch(handle.url)).rejects.toThrow();
  });

  it('--open refuses a run that is not in the runs folder, before serving anything', async () => {
    const t = io();
    const code = await serveUntil(['--static-dir', 'static', '--runs-dir', 'runs-open', '--open', '20250101-120000-abcdef'], t.io, () => new Promise(() => undefined));
    expect(code).toBe(2);
    expect(t.err()).toMatch(/--open: run 20250101-120000-abcdef is not in .*runs-open: `kde-profiler list --runs-dir .*` shows the runs there/);
    expect(t.out()).toBe('');
    expect(await runningServer(join(dir, 'runs-open'))).toBeNull();
    await expect(serveCommand.run(['--open', 'latest'], io().io)).rejects.toThrow(/--open: expected a run id like/);
    await expect(serveCommand.run(['--open', '20250101-120000-abcdef', '--example', 'tiny'], io().io)).rejects.toThrow(/give one of them/);
  });

  it('--open prints the link to the run\'s results; the server is recorded in the runs folder until it stops', async () => {
    const id = '20250101-120000-a1b2c3';
    const runDir = join(dir, 'runs-linked', id);
    await mkdir(runDir, { recursive: true });
    await writeFile(join(runDir, 'config.json'), '{}');
    const entry = { id, status: 'completed', createdAt: '2025-01-01T12:00:00.000Z', finishedAt: '2025-01-01T12:00:05.000Z', dataset: 'tiny', backend: 'cpu', strategies: ['reference'], headline: [] };
    await writeFile(join(runDir, 'status.json'), JSON.stringify(entry));
    const t = io();
    let stop: (reason: string) => void = () => undefined;
    let started: () => void = () => undefined;
    const printed = new Promise<void>((r) => (started = r));
    const done = serveUntil(['--static-dir', 'static', '--runs-dir', 'runs-linked', '--open', id], t.io, () => {
      started();
      return new Promise((r) => (stop = r));
    });
    await printed;
    const url = /web mode: (\S+)/.exec(t.out())![1]!;
    expect(t.out()).toContain(`Results of run ${id}: ${url}#/results?run=${id}\n`);
    const record = await runningServer(join(dir, 'runs-linked'));
    expect(record).toEqual({ url, pid: process.pid });
    expect((await stat(join(dir, 'runs-linked', SERVE_INFO_FILE))).mode & 0o777).toBe(0o600);
    expect((await fetch(url)).status).toBe(200);
    stop('test over');
    expect(await done).toBe(0);
    expect(t.err()).toContain('test over, stopping');
    expect(await runningServer(join(dir, 'runs-linked'))).toBeNull();
    await expect(stat(join(dir, 'runs-linked', SERVE_INFO_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
