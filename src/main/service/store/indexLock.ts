/**
 * A lock file shared by every process that writes one runs folder (the desktop app, `kde-profiler
 * serve`, CLI runs): created with O_EXCL, holding the owner's pid, its start time where the system
 * tells it (ownerProcess.ts) and a token of its own. A lock whose owner is dead, whose pid now
 * belongs to another process, or that is older than any update takes, is taken over, so a crash
 * never blocks the folder; waiting for a live owner is bounded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { link, open, rename, rm, stat } from 'node:fs/promises';
import { readUntrustedText } from '../../data';
import { AppError } from '../../../shared/errors';
import { ownStartTicks, processAlive, processStartTicks } from './ownerProcess';

export interface FileLockOptions {
  /** a lock older than this is taken over even if its owner lives: updates under it take milliseconds */
  staleMs?: number;
  /** how long to wait for a live owner before giving up */
  timeoutMs?: number;
}

const DEFAULT_STALE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 15_000;

interface SeenLock {
  text: string;
  pid: number | undefined;
  /** the owner's start time, where its lock says it (older locks and other systems do not) */
  startTicks: number | undefined;
  ageMs: number;
}

function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

function pause(): Promise<void> {
  // a short, jittered wait, so two waiters do not keep colliding in step
  return new Promise((resolve) => setTimeout(resolve, 3 + Math.random() * 12));
}

/** a lock holds a pid and a token: anything larger is not a lock */
const MAX_LOCK_BYTES = 4096;

/** What a lock file says; a link, a pipe or an oversized file there is no one's lock: stale at once. */
async function readLock(path: string): Promise<SeenLock | undefined> {
  let text: string;
  try {
    text = await readUntrustedText(path, { maxBytes: MAX_LOCK_BYTES });
  } catch (e) {
    if ((e as AppError).code === 'NOT_FOUND') return undefined;
    if ((e as AppError).code === 'BAD_ARGUMENT') return { text: '', pid: undefined, startTicks: undefined, ageMs: Infinity };
    throw e;
  }
  try {
    const info = await stat(path);
    // the first line: "PID" or "PID START_TICKS"
    const [pidWord, startWord] = (text.split('\n')[0] ?? '').split(' ');
    const pid = Number.parseInt(pidWord ?? '', 10);
    const start = startWord === undefined ? Number.NaN : Number(startWord);
    return {
      text, pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
      startTicks: Number.isSafeInteger(start) && start >= 0 ? start : undefined, ageMs: Date.now() - info.mtimeMs,
    };
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    throw e;
  }
}

function isStale(lock: SeenLock, staleMs: number): boolean {
  // an empty lock is one being written right now: only its age can say it was abandoned
  if (lock.pid !== undefined && !processAlive(lock.pid)) return true;
  // a live pid that started at another time is a reused one: the owner is gone
  if (lock.pid !== undefined && lock.startTicks !== undefined) {
    const now = processStartTicks(lock.pid);
    if (now !== undefined && now !== lock.startTicks) return true;
  }
  return lock.ageMs > staleMs;
}

/** Creates the lock file; false when another holds it. */
async function tryCreate(path: string, token: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') return false;
    throw e;
  }
  try {
    await handle.writeFile(token);
    return true;
  } catch (e) {
    await rm(path, { force: true }).catch(() => undefined);
    throw e;
  } finally {
    await handle.close();
  }
}

/**
 * Moves a stale lock aside. Another waiter may have taken it over since it was read: then the lock
 * moved aside is that waiter's fresh one, and it is put back (unless a newer one already stands).
 */
async function takeOver(path: string, seen: SeenLock): Promise<void> {
  const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return;
    throw e;
  }
  try {
    const moved = await readUntrustedText(aside, { maxBytes: MAX_LOCK_BYTES }).catch(() => seen.text);
    if (moved !== seen.text) await link(aside, path).catch(() => undefined);
  } finally {
    await rm(aside, { force: true });
  }
}

function heldTooLong(path: string, lock: SeenLock | undefined, timeoutMs: number): AppError {
  const owner = lock?.pid === undefined ? 'another process' : `process ${lock.pid}`;
  return new AppError('IO', `${path} has been held by ${owner} for more than ${Number((timeoutMs / 1000).toFixed(1))} s: ` +
    'if no kde-profiler is writing this runs folder, delete that file and retry.', { file: path });
}

async function acquire(path: string, options: FileLockOptions): Promise<string> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const start = ownStartTicks();
  const token = `${process.pid}${start === undefined ? '' : ` ${start}`}\n${randomUUID()}\n`;
  for (;;) {
    if (await tryCreate(path, token)) return token;
    const seen = await readLock(path);
    if (seen && isStale(seen, staleMs)) {
      await takeOver(path, seen);
      continue;
    }
    if (Date.now() > deadline) throw heldTooLong(path, seen, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    await pause();
  }
}

async function release(path: string, token: string): Promise<void> {
  // a lock taken over while this holder was slow is someone else's now: leave it
  const current = await readLock(path).catch(() => undefined);
  if (current?.text === token) await rm(path, { force: true });
}

/** Runs `body` while holding the lock file at `path`. Errors creating the lock (EACCES, ENOSPC) pass through. */
export async function withFileLock<T>(path: string, body: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const token = await acquire(path, options);
  try {
    return await body();
  } finally {
    await release(path, token);
  }
}
