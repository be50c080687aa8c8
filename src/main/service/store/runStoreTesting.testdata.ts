/**
 * Helpers for the run store's tests: made-up status files, the worker script run as another
 * process (as another user where the tests run as root, since chmod does not stop root's writes),
 * and a small real disk that can be filled.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunStatusFile } from './runStore';
import { compareEntries, type RunIndexEntry } from '../../../shared/api';
import { serializeError } from '../../../shared/errors';
import { readIndex, runFolders } from './runIndex';

const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const WORKER = fileURLToPath(new URL('./runStoreWorker.testdata.ts', import.meta.url));
/** the conventional `nobody` */
/** the conventional `nobody`, whom chmod binds where the tests run as root */
export const OTHER_UID = 65534;
const AS_OTHER_USER = ['setpriv', `--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', '--'];

/** a pid that is certainly not running: beyond any pid_max */
export const DEAD_PID = 2 ** 30;

export function finishedStatus(id: string, s: Partial<RunStatusFile> = {}): RunStatusFile {
  return { id, status: 'completed', createdAt: new Date().toISOString(), dataset: 'preset:tiny', backend: 'wasm', strategies: ['reference'], headline: [], ...s };
}

/** What the run index lists (index.json with its journal applied), newest first, as a store's first look or a reader outside the app takes it. */
export async function indexedEntries(runsDir: string): Promise<RunIndexEntry[]> {
  const folders = (await runFolders(runsDir)).size;
  return [...(await readIndex(runsDir, folders)).values()].sort(compareEntries);
}

/** `n` run ids a second apart, oldest first, with their creation times (ids begin with it, as newRunId makes them) */
export function runIdsInOrder(n: number, from = Date.UTC(2025, 0, 1)): { id: string; createdAt: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(from + i * 1000);
    const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return { id: `${stamp}-${i.toString(16).padStart(6, '0')}`, createdAt: at.toISOString() };
  });
}

/** Run folders holding `statuses` as their status.json, written in parallel batches (a large runs folder in seconds). */
export async function writeRunFolders(runsDir: string, statuses: readonly RunStatusFile[]): Promise<void> {
  for (let i = 0; i < statuses.length; i += 500) {
    await Promise.all(statuses.slice(i, i + 500).map(async (s) => {
      await mkdir(join(runsDir, s.id));
      await writeFile(join(runsDir, s.id, 'status.json'), JSON.stringify(s));
    }));
  }
}

export interface WorkerResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs runStoreWorker.testdata.ts in a process of its own. */
export function runWorker(args: string[], options: { asOtherUser?: boolean } = {}): Promise<WorkerResult> {
  return runScript(WORKER, args, options);
}

/** Runs a TypeScript worker script in a process of its own, as uid OTHER_UID when asked (see readOnlyViewer). */
export function runScript(script: string, args: string[], options: { asOtherUser?: boolean } = {}): Promise<WorkerResult> {
  const command = [...(options.asOtherUser ? AS_OTHER_USER : []), process.execPath, '--import', 'tsx', script, ...args];
  return new Promise((resolve) => {
    execFile(command[0]!, command.slice(1), { cwd: REPO_ROOT, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Who can be shown a read-only folder: this process when chmod binds it; as root (whom chmod 0555
 * does not stop) a worker run as uid 65534 through setpriv; otherwise the reason to skip.
 */
export function readOnlyViewer(): { asOtherUser: boolean } | { skip: string } {
  if (process.platform === 'win32') return { skip: 'chmod 0555 does not make a folder read-only on Windows' };
  if (process.getuid?.() !== 0) return { asOtherUser: false };
  const probe = spawnSync(AS_OTHER_USER[0]!, [...AS_OTHER_USER.slice(1), 'test', '-r', WORKER], { encoding: 'utf8' });
  const why = probe.error?.message ?? (probe.status === 0 ? undefined : probe.stderr.trim() || `exit status ${String(probe.status)}`);
  if (why === undefined) return { asOtherUser: true };
  return { skip: `running as root, whom chmod 0555 does not stop, and uid ${OTHER_UID} cannot run the check through setpriv (${why})` };
}

/** Mounts a 200 KiB tmpfs on `dir`; the reason when it cannot (mounting needs root and a kernel that allows it). */
export function mountSmallDisk(dir: string): string | undefined {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', dir], { encoding: 'utf8' });
  if (r.error) return r.error.message;
  return r.status === 0 ? undefined : r.stderr.trim() || `mount exited with ${String(r.status)}`;
}

/** Shows `source` read-only at `target` (EROFS to any writer, root too); the reason when it cannot. */
export function mountReadOnlyView(source: string, target: string): string | undefined {
  const bind = spawnSync('mount', ['--bind', source, target], { encoding: 'utf8' });
  if (bind.error || bind.status !== 0) return bind.error?.message ?? (bind.stderr.trim() || `mount exited with ${String(bind.status)}`);
  const readOnly = spawnSync('mount', ['-o', 'remount,ro,bind', target], { encoding: 'utf8' });
  if (readOnly.status === 0) return undefined;
  unmount(target);
  return readOnly.error?.message ?? (readOnly.stderr.trim() || `remount exited with ${String(readOnly.status)}`);
}

export function unmount(dir: string): void {
  spawnSync('umount', [dir]);
}

/** What a call in a worker process gave, as JSON can carry it: its value, or its error's code and message. */
export type Outcome<T> = { ok: T } | { error: { code: string; message: string } };

export async function outcome<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: await call() };
  } catch (e) {
    const { code, message } = serializeError(e);
    return { error: { code, message } };
  }
}
