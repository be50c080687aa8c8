/**
 * One committer at a time in a result folder: the moves of a commit are many renames, and two
 * commits interleaving them would leave entries of both. The lock is a file made exclusively
 * ('wx') holding its owner's pid; a lock whose owner has died is taken over. Only the short
 * renaming step runs under it, never the copy into the staging folder.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { processAlive } from './processAlive';

export const COMMIT_LOCK = '.kde-profiler-commit.lock';
/** how long a commit waits for another process's commit into the same folder (renames take milliseconds) */
const WAIT_MS = 30_000;
const POLL_MS = 25;

async function ownerOf(lock: string): Promise<number | undefined> {
  const text = await readFile(lock, 'utf8').catch(() => undefined);
  const pid = Number.parseInt(text ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function tryTake(lock: string): Promise<boolean> {
  try {
    const handle = await open(lock, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** Runs `fn` holding DIR's commit lock; waits a bounded time for another live committer. */
export async function withCommitLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, COMMIT_LOCK);
  const deadline = Date.now() + WAIT_MS;
  while (!(await tryTake(lock))) {
    const owner = await ownerOf(lock);
    // a lock still being written has no pid yet; one without a pid for a second lost its writer
    const orphaned = owner === undefined && Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? 0) > 1000;
    if (orphaned || (owner !== undefined && !processAlive(owner))) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new AppError('IO', `${dir}: another process (pid ${owner ?? 'unknown'}) has been committing a result here for ${WAIT_MS / 1000} s; wait for it, or remove ${lock} if no kde-profiler is running.`, { file: COMMIT_LOCK });
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true }).catch(() => undefined);
  }
}
