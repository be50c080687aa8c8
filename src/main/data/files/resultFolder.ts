/**
 * A result folder (`run --out DIR`, `decode --out DIR`, `merge --out DIR`) committed as one step, as
 * git moves one ref: the whole result is first written into a hidden staging folder inside DIR,
 * with its manifest (RESULT_MANIFEST) last; then the earlier result's entries are moved aside, the
 * new ones renamed into place, and the manifest renamed in as the commit point.
 *
 * A kill before the staging manifest exists leaves DIR as it was (the staging folder is cleared at
 * the next open); a kill after it is rolled forward at the next open, so DIR then holds the new
 * result whole. While a commit is in flight DIR has no manifest: a reader that finds none beside a
 * pending staging folder knows the result is not whole yet. Only names a result writes are moved:
 * a person's own files in DIR are never touched. Earlier results' entries never stand beside a new
 * result's (a `--strategy all` run's likelihoods do not survive a later run of two strategies).
 */
import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TEMPORARY_NAME, writeFailureReason, writeFileAtomic } from './atomicWrite';
import { AppError } from '../../../shared/errors';
import { withCommitLock } from './commitLock';
import { processAlive } from './processAlive';

/** written last: a folder whose manifest is missing holds no complete result (or one from before manifests) */
export const RESULT_MANIFEST = 'result.json';
/** `.kde-profiler-staging-<pid>-<hex>`: the pid says whether the process filling it still lives */
const STAGING_PREFIX = '.kde-profiler-staging-';
const ASIDE_PREFIX = '.kde-profiler-old-';
/** the most a manifest may hold: a list of a few names */
const MAX_MANIFEST_BYTES = 64 * 1024;

export interface ResultManifest {
  format: 'kde-profiler-result';
  version: 1;
  /** the command that wrote it */
  kind: 'run' | 'decode' | 'merge';
  runId: string;
  /** the run's final status: a failed or cancelled run's result is committed only where no earlier result stood */
  status: string;
  committedAt: string;
  /** the top-level files and folders of the result, relative to DIR */
  entries: string[];
}

export type ResultDescription = Omit<ResultManifest, 'format' | 'version' | 'committedAt' | 'entries'>;

/** Every top-level name any result writes: what a new result moves aside, whichever earlier result left it. */
export interface ResultNames {
  all: readonly string[];
}

/**
 * Called before each step of a commit that changes DIR ('aside NAME', 'in NAME', 'manifest',
 * 'cleanup') and once the staging folder is filled ('staged'): the fault tests kill the process
 * there, to show a result is whole or absent whatever the moment. Nothing else sets it.
 */
let faultHook: ((step: string) => void) | undefined;
export function setCommitFaultHook(hook: ((step: string) => void) | undefined): void {
  faultHook = hook;
}

const present = (path: string): Promise<boolean> => lstat(path).then(() => true, () => false);

async function readManifest(path: string): Promise<ResultManifest | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined || text.length > MAX_MANIFEST_BYTES) return undefined;
  try {
    const m = JSON.parse(text) as ResultManifest;
    const safe = Array.isArray(m.entries) && m.entries.every((e) => typeof e === 'string' && e !== '' && !/[\\/]/.test(e) && e !== '..' && e !== '.');
    return m.format === 'kde-profiler-result' && safe ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The committed result's manifest in DIR; undefined when none is (no result, one from before manifests, or a commit in flight). */
export function readResultManifest(dir: string): Promise<ResultManifest | undefined> {
  return readManifest(join(dir, RESULT_MANIFEST));
}

/** Moves `name` from DIR into the aside folder, replacing what an earlier attempt left there. */
async function moveAside(dir: string, aside: string, name: string): Promise<void> {
  if (!(await present(join(dir, name)))) return;
  faultHook?.(`aside ${name}`);
  await rm(join(aside, name), { recursive: true, force: true });
  await rename(join(dir, name), join(aside, name));
}

/**
 * Puts a complete staging folder's result in place. Safe to repeat after a kill at any step: an
 * entry already moved in is not in the staging folder any more and is left where it is.
 */
async function applyStaged(dir: string, id: string, names: ResultNames): Promise<void> {
  const staging = join(dir, STAGING_PREFIX + id);
  const aside = join(dir, ASIDE_PREFIX + id);
  const manifest = await readManifest(join(staging, RESULT_MANIFEST));
  if (!manifest) throw new Error(`${staging} has no manifest: it is not a complete result`);
  await mkdir(aside, { recursive: true });
  // the folder stops being a trusted result first; stale entries of any earlier result go with it
  await moveAside(dir, aside, RESULT_MANIFEST);
  for (const name of names.all) if (!manifest.entries.includes(name)) await moveAside(dir, aside, name);
  for (const name of manifest.entries) {
    if (!(await present(join(staging, name)))) continue;
    await moveAside(dir, aside, name);
    faultHook?.(`in ${name}`);
    await rename(join(staging, name), join(dir, name));
  }
  // the commit point
  faultHook?.('manifest');
  await rename(join(staging, RESULT_MANIFEST), join(dir, RESULT_MANIFEST));
  faultHook?.('cleanup');
  await rm(aside, { recursive: true, force: true });
  await rm(staging, { recursive: true, force: true });
}

/** Removes the writers' temporary files in DIR and one level below (the old CLI's `.NAME.<hex>.tmp`). */
async function clearTemporaries(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (e.isFile() && TEMPORARY_NAME.test(e.name)) await rm(join(dir, e.name), { force: true });
    else if (e.isDirectory() && !e.name.startsWith('.')) {
      for (const f of await readdir(join(dir, e.name), { withFileTypes: true }).catch(() => [])) {
        if (f.isFile() && TEMPORARY_NAME.test(f.name)) await rm(join(dir, e.name, f.name), { force: true });
      }
    }
  }
}

/** Whether a staging folder belongs to a process still running (filling it, or waiting to commit it; this one too). */
function ownedByLiveProcess(id: string): boolean {
  const pid = Number.parseInt(id.split('-')[0] ?? '', 10);
  return Number.isInteger(pid) && processAlive(pid);
}

/** recoverResultFolder's work, for a caller holding the commit lock; `own` is the caller's staging id, left for it to apply */
async function recoverLocked(dir: string, names: ResultNames, own?: string): Promise<string[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const rolled: string[] = [];
  for (const name of entries.filter((n) => n.startsWith(STAGING_PREFIX)).sort()) {
    const id = name.slice(STAGING_PREFIX.length);
    if (id === own || ownedByLiveProcess(id)) continue;
    const manifest = await readManifest(join(dir, name, RESULT_MANIFEST));
    if (manifest) {
      await applyStaged(dir, id, names);
      rolled.push(manifest.runId);
    } else {
      await rm(join(dir, name), { recursive: true, force: true });
    }
  }
  for (const name of entries.filter((n) => n.startsWith(ASIDE_PREFIX))) {
    if (!(await present(join(dir, STAGING_PREFIX + name.slice(ASIDE_PREFIX.length))))) await rm(join(dir, name), { recursive: true, force: true });
  }
  await clearTemporaries(dir);
  return rolled;
}

/**
 * What a killed commit left in DIR, finished or cleared: a staging folder with its manifest is
 * rolled forward, one without is removed, an aside folder whose staging is gone is removed, and
 * stray temporary files go; another live process's staging folder is left alone. Returns the run
 * ids rolled forward. A folder that does not exist has nothing to recover.
 */
export async function recoverResultFolder(dir: string, names: ResultNames): Promise<string[]> {
  if (!(await present(dir))) return [];
  return withCommitLock(dir, () => recoverLocked(dir, names));
}

/** Whether DIR holds a result: a manifest, or one of the names a result writes (a result from before manifests). */
export async function holdsResult(dir: string, names: ResultNames): Promise<boolean> {
  if (await present(join(dir, RESULT_MANIFEST))) return true;
  for (const name of names.all) if (await present(join(dir, name))) return true;
  return false;
}

/** Whether DIR has a staged result that is complete but not yet in place (a commit was killed). */
export async function pendingCommit(dir: string): Promise<boolean> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(STAGING_PREFIX) && (await readManifest(join(dir, name, RESULT_MANIFEST)))) return true;
  }
  return false;
}

/**
 * The file `rel` of a finished run folder into a staging folder at the same relative path: a hard
 * link where the file system allows (a run's files are never rewritten, and a long likelihood is
 * not copied twice), else a copy.
 */
export async function stageFile(fromDir: string, staging: string, rel: string): Promise<void> {
  await mkdir(dirname(join(staging, rel)), { recursive: true });
  try {
    await link(join(fromDir, rel), join(staging, rel));
  } catch {
    // another file system, or one without hard links
    await copyFile(join(fromDir, rel), join(staging, rel));
  }
}

/**
 * Writes a result into DIR as one commit: `fill` writes the result's entries into the staging
 * folder it is given and returns their top-level names; nothing of DIR changes until it has
 * returned. A failure in `fill` removes the staging folder and leaves DIR as it was.
 */
export async function commitResultFolder(
  dir: string, names: ResultNames, description: ResultDescription, fill: (staging: string) => Promise<string[]>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await recoverResultFolder(dir, names);
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const staging = join(dir, STAGING_PREFIX + id);
  await mkdir(staging);
  let entries: string[];
  try {
    entries = [...new Set(await fill(staging))];
    faultHook?.('staged');
    const manifest: ResultManifest = { format: 'kde-profiler-result', version: 1, ...description, committedAt: new Date().toISOString(), entries };
    await writeFileAtomic(join(staging, RESULT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (e) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (e instanceof AppError) throw e;
    throw new AppError('IO', `${dir} could not be written: ${writeFailureReason(e)}; whatever was there before is unchanged.`, { file: basename(dir) });
  }
  await withCommitLock(dir, async () => {
    await recoverLocked(dir, names, id);
    await applyStaged(dir, id, names);
  }).catch((e: unknown) => {
    if (e instanceof AppError) throw e;
    throw new AppError('IO', `${dir}: putting the new result in place failed (${writeFailureReason(e)}); the next command writing to this folder finishes it.`, { file: basename(dir) });
  });
}
