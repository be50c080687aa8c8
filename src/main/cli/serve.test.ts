import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand, startWebMode } from './serve';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-serve-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>x</title>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  return { io: { stdout, stderr, cwd: dir }, out: () => out, err: () => err };
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
    expect((await fetch(new URL('/', handle.url))).status).toBe(401);
    await handle.close();
    await expect(fetch(handle.url)).rejects.toThrow();
  });
});
