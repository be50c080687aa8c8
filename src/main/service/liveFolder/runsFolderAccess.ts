/**
 * Whether runs can start in the runs folder. A read-only folder (an archive, a snapshot, a mount
 * another lab shares) is browsed like any other; only starting a run needs to write. The answer
 * comes from making (and removing) a folder in it, as a run's start would: access() says yes to
 * root on /proc, and says nothing of a full disk.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { RunsFolderState } from '../../../shared/serverState';
import { errnoOf, writeProblemOf } from '../store';

/** what to do about a folder runs cannot start in, said the same way in the page and in a refused start */
const COPY_OR_ELSEWHERE = 'To run, copy the folder somewhere writable and open the copy, or choose a writable folder with --runs-dir.';

/** Begins as the store's own sentence for an unwritable folder (storeErrors.ts), so a person reads one wording whichever check met it. */
function readOnlySentence(runsDir: string, code: string): string {
  const why = code === 'EROFS' ? 'it is on a read-only disk or mount' : 'it is read-only to this user';
  return `the runs folder ${runsDir} is not writable (${code}): ${why}. Its runs can be browsed, but no run can start there. ${COPY_OR_ELSEWHERE}`;
}

/** The state of a folder whose probe failed with `e`. */
function refusedState(runsDir: string, e: unknown): RunsFolderState {
  const code = errnoOf(e) ?? 'unknown error';
  const problem = writeProblemOf(e);
  if (problem === 'not-writable') return { path: runsDir, canStartRuns: false, code, reason: readOnlySentence(runsDir, code) };
  if (problem === 'disk-full') {
    return {
      path: runsDir, canStartRuns: false, code,
      reason: `the disk holding the runs folder ${runsDir} is full (${code}): its runs can be browsed, but no run can start there until space is freed. Free space, or choose a folder on another disk with --runs-dir.`,
    };
  }
  const detail = e instanceof Error ? e.message : String(e);
  return { path: runsDir, canStartRuns: false, code, reason: `no run can start in the runs folder ${runsDir}: a folder cannot be made there (${detail}). ${COPY_OR_ELSEWHERE}` };
}

/**
 * The runs folder as a page should know it. `ready` is the store's start (making the folder and
 * reading it): when that failed, its error is the reason.
 */
export async function runsFolderState(runsDir: string, ready: Promise<void>): Promise<RunsFolderState> {
  const failed = await ready.then(() => undefined, (e: unknown) => e);
  if (failed !== undefined) {
    // the store's own error already names the folder and what to do
    const reason = failed instanceof Error ? failed.message : `the runs folder ${runsDir} could not be opened.`;
    return { path: runsDir, canStartRuns: false, code: errnoOf(failed) ?? /\((E[A-Z]+)\)/.exec(reason)?.[1], reason };
  }
  // a name of its own per probe: two probes at once in one process must not collide
  const probe = join(runsDir, `.kde-profiler-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(probe);
  } catch (e) {
    return refusedState(runsDir, e);
  }
  await rmdir(probe).catch(() => undefined);
  return { path: runsDir, canStartRuns: true };
}

/** Refuses to start a run where none can start, saying why and what to do, before anything is queued. */
export async function assertRunsCanStart(runsDir: string, ready: Promise<void>): Promise<void> {
  const state = await runsFolderState(runsDir, ready);
  if (state.canStartRuns) return;
  throw new AppError('IO', state.reason ?? `no run can start in the runs folder ${runsDir}.`, {
    file: runsDir, hint: 'copy the runs folder somewhere writable, or choose a writable one with --runs-dir',
  });
}
