import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { withFileLock } from './indexLock';
import { processStartTicks } from './ownerProcess';
import { DEAD_PID } from './runStoreTesting.testdata';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'index-lock-'));
  lock = join(dir, 'index.json.lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withFileLock', () => {
  it('holds the lock file, with its pid and start time, only while the body runs', async () => {
    const held = await withFileLock(lock, async () => readFile(lock, 'utf8'));
    const start = processStartTicks(process.pid);
    expect(held.split('\n')[0]).toBe(start === undefined ? String(process.pid) : `${process.pid} ${start}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes over at once a lock whose live pid started at another time (the owner's pid reused)", async (ctx) => {
    const start = processStartTicks(process.ppid);
    if (start === undefined) ctx.skip('skipped: no process start times on this system (Linux /proc only)');
    await writeFile(lock, `${process.ppid} ${start! + 1}\n`);
    await withFileLock(lock, async () => undefined, { timeoutMs: 0 });
    // its true start time: a live owner, waited for (and here given up on at once)
    await writeFile(lock, `${process.ppid} ${start!}\n`);
    await expect(withFileLock(lock, async () => undefined, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'IO' });
  });

  it('lets one body in at a time', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 20 }, () => withFileLock(lock, async () => {
      most = Math.max(most, ++inside);
      await sleep(2);
      inside--;
    })));
    expect(most).toBe(1);
  });

  it('takes over a lock left by a dead process at once', async () => {
    await writeFile(lock, `${DEAD_PID}\n`);
    // no time to wait for the owner: a lock that is not taken over at once fails as held too long
    await withFileLock(lock, async () => undefined, { timeoutMs: 0 });
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock older than staleMs even if its owner lives', async () => {
    await writeFile(lock, `${process.ppid}\n`);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    await withFileLock(lock, async () => undefined);
    expect(await readdir(dir)).toEqual([]);
  });

  it('waits for a live owner to let go', async () => {
    await writeFile(lock, `${process.ppid}\n`);
    const released = sleep(150).then(() => rm(lock));
    const started = performance.now();
    await withFileLock(lock, async () => undefined);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await released;
  });

  it('gives up on a live owner after timeoutMs with an error naming the lock and the pid', async () => {
    await writeFile(lock, `${process.ppid}\n`);
    const failed = await withFileLock(lock, async () => undefined, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as AppError).message).toBe(`${lock} has been held by process ${process.ppid} for more than 0.1 s: ` +
      'if no kde-profiler is writing this runs folder, delete that file and retry.');
    expect(await readFile(lock, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('leaves a lock someone else took over while the body ran', async () => {
    await withFileLock(lock, async () => writeFile(lock, `${process.ppid}\nsomeone else\n`));
    expect(await readFile(lock, 'utf8')).toBe(`${process.ppid}\nsomeone else\n`);
  });
});
