import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printRunLink, removeServeInfo, runLink, runningServer, SERVE_INFO_FILE, writeServeInfo } from './serverLink';

const URL_WITH_TOKEN = 'http://127.0.0.1:4567/?token=abcdefghijklmnopqrstuvwxyz012345';
const RUN = '20250101-120000-a1b2c3';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-serve-link-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** the pid of a process that has ended, so no live process has it (pids are not reused at once) */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function stderrOf() {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c) => (text += String(c)));
  return { io: { stdout: new PassThrough(), stderr, cwd: dir }, text: () => text };
}

describe('runLink', () => {
  it('puts the view and the run after the token, replacing any hash', () => {
    expect(runLink(URL_WITH_TOKEN, RUN)).toBe(`${URL_WITH_TOKEN}#/results?run=${RUN}`);
    expect(runLink(`${URL_WITH_TOKEN}#/live?example=tiny`, RUN, 'live')).toBe(`${URL_WITH_TOKEN}#/live?run=${RUN}`);
  });
});

describe('the serve record in the runs folder', () => {
  it('is written for the owner only and read back while its process lives', async () => {
    const file = await writeServeInfo(dir, { url: URL_WITH_TOKEN, pid: process.pid });
    expect(file).toBe(join(dir, SERVE_INFO_FILE));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: URL_WITH_TOKEN, pid: process.pid });
    expect(await runningServer(dir)).toEqual({ url: URL_WITH_TOKEN, pid: process.pid });
  });

  it('keeps 0600 when a leftover file had wider permissions', async () => {
    const tmp = join(dir, `${SERVE_INFO_FILE}.${process.pid}.tmp`);
    await writeFile(tmp, 'old');
    await chmod(tmp, 0o644);
    await writeServeInfo(dir, { url: URL_WITH_TOKEN, pid: process.pid });
    expect((await stat(join(dir, SERVE_INFO_FILE))).mode & 0o777).toBe(0o600);
  });

  it('is ignored when its process is gone, missing, or not a record', async () => {
    expect(await runningServer(dir)).toBeNull();
    await writeServeInfo(dir, { url: URL_WITH_TOKEN, pid: deadPid() });
    expect(await runningServer(dir)).toBeNull();
    await writeFile(join(dir, SERVE_INFO_FILE), '{"url": "file:///etc/passwd", "pid": 1}');
    expect(await runningServer(dir)).toBeNull();
    await writeFile(join(dir, SERVE_INFO_FILE), 'not json');
    expect(await runningServer(dir)).toBeNull();
  });

  it('is removed only by the serve that wrote it', async () => {
    await writeServeInfo(dir, { url: URL_WITH_TOKEN, pid: process.pid });
    await removeServeInfo(dir, process.pid + 1);
    expect(await runningServer(dir)).not.toBeNull();
    await removeServeInfo(dir, process.pid);
    await expect(stat(join(dir, SERVE_INFO_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    await removeServeInfo(dir, process.pid);
  });

  it('gives run and decode a line with the link while a serve runs, and nothing otherwise', async () => {
    const none = stderrOf();
    await printRunLink(none.io, dir, RUN, 'results');
    expect(none.text()).toBe('');
    await writeServeInfo(dir, { url: URL_WITH_TOKEN, pid: process.pid });
    const some = stderrOf();
    await printRunLink(some.io, dir, RUN, 'live');
    expect(some.text()).toBe(`run ${RUN} in the browser: ${URL_WITH_TOKEN}#/live?run=${RUN}\n`);
  });
});
