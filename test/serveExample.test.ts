/**
 * `npm run example` in web mode: the example's run starts on the service and the page opens on
 * it, so a second visit (another tab, a reload) watches the same run instead of starting another.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveUntil } from '../src/main/cli/serve';
import { capturedIo } from '../src/main/cli/testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-serve-example-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>x</title>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('--example starts one run on the service and links the page to it', async () => {
  const t = capturedIo(dir);
  let stop: (reason: string) => void = () => undefined;
  let started: () => void = () => undefined;
  const printed = new Promise<void>((r) => (started = r));
  const done = serveUntil(['--static-dir', 'static', '--runs-dir', 'runs', '--example', 'tiny', '--no-browser'], t.io, () => {
    started();
    return new Promise((r) => (stop = r));
  });
  await printed;
  const [, id, link] = /Example run (\S+) \(every strategy on preset tiny\): (\S+)/.exec(t.out())!;
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=[\\w-]+#/live\\?run=${id}$`));
  expect(t.out()).not.toContain('opened in your browser');
  // the page the link opens is served, and the run is there for it to watch
  expect((await fetch(link!)).status).toBe(200);
  stop('test over');
  expect(await done).toBe(0);
  expect((await readdir(join(dir, 'runs'))).filter((n) => /^\d{8}-/.test(n))).toEqual([id]);
});
