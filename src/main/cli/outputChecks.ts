/**
 * Where a command will write, checked before any work starts: a profile or a decode that runs for
 * minutes and then cannot put its result where it was asked wastes the run. Each refusal is a
 * UsageError (exit 2) naming the flag, the path and what to do instead.
 */
import { lstat, mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from './cliTypes';
import { checkOutputTarget } from './outputFiles';

/** The path itself when it exists, else the nearest folder above it that does. */
export async function nearestExisting(path: string): Promise<string> {
  let existing = path;
  while (!(await stat(existing).catch(() => undefined)) && dirname(existing) !== existing) existing = dirname(existing);
  return existing;
}

/**
 * Whether a folder can be written, by making (and removing) a folder in it: access() says yes to
 * root on a read-only disk and on /proc. Returns the system's reason, or undefined when it can.
 */
export async function cannotWriteIn(folder: string): Promise<string | undefined> {
  const probe = join(folder, `.kde-profiler-write-check-${process.pid}`);
  try {
    await mkdir(probe);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
  await rmdir(probe).catch(() => undefined);
  return undefined;
}

/** What a command will put in its `--out DIR`: files, and the folders they go in, relative to DIR. */
export interface FolderOutputs {
  files: string[];
  folders: string[];
}

/**
 * `--out DIR` for run and decode: DIR (or the nearest folder above it, where DIR is made) must be a
 * folder that can be written, and nothing the command will write there may be a link, a folder
 * or a device where a file goes (nor a file or a link where a folder goes).
 */
export async function checkOutputFolder(dir: string, outputs: FolderOutputs): Promise<void> {
  const existing = await nearestExisting(dir);
  if (!(await stat(existing)).isDirectory()) {
    const what = existing === dir ? `${dir} is a file` : `${existing} is a file, so ${dir} cannot be made in it`;
    throw new UsageError(`--out: ${what}: name a folder (it is made if missing)`);
  }
  const reason = await cannotWriteIn(existing);
  if (reason !== undefined) throw new UsageError(`--out ${dir} cannot be written (${reason} in ${existing}): name a folder you may write`);
  for (const folder of outputs.folders) {
    const s = await lstat(join(dir, folder)).catch(() => undefined);
    if (s && !s.isDirectory()) throw new UsageError(`--out: ${join(dir, folder)} is not a folder (the results go in it): move it away or name another --out`);
  }
  for (const file of outputs.files) {
    try {
      await checkOutputTarget(join(dir, file));
    } catch (e) {
      throw new UsageError(`--out: ${(e as Error).message}`);
    }
  }
}

/**
 * `export --out FILE`: its folder must exist and be writable; a file already there is refused
 * unless `replace` (a link or anything but a regular file always is), so an export never
 * destroys what a person kept under that name. `flag` names where the path came from ('' for a
 * default name).
 */
export async function checkNewOutputFile(path: string, replace: boolean, flag = '--out'): Promise<void> {
  const named = flag === '' ? path : `${flag} ${path}`;
  const folder = dirname(path);
  const s = await stat(folder).catch(() => undefined);
  if (!s) throw new UsageError(`${named}: the folder ${folder} does not exist: make it first, or name a file in a folder that exists`);
  if (!s.isDirectory()) throw new UsageError(`${named}: ${folder} is a file, not a folder: name a file in a folder`);
  const there = await lstat(path).catch(() => undefined);
  if (there && !replace && there.isFile()) throw new UsageError(`${named} already exists: export does not replace a file; name a new file, remove it, or give --force to replace it`);
  try {
    await checkOutputTarget(path);
  } catch (e) {
    throw new UsageError(flag === '' ? (e as Error).message : `${flag}: ${(e as Error).message}`);
  }
  const reason = await cannotWriteIn(folder);
  if (reason !== undefined) throw new UsageError(`${named} cannot be written (${reason} in ${folder}): name a file in a folder you may write`);
}
