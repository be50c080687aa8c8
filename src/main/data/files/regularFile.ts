/**
 * Every file a person names (a .npz, an .nwb, a recipe) is checked before it is opened: a named
 * pipe, a socket, a device or a folder gets an error at once. Opening a pipe for reading waits for
 * a writer, and Node does that wait on one of the few threads it reads every file with, so a single
 * pipe would stall the whole service. The open itself is non-blocking as well, so a file swapped
 * for a pipe between the check and the open cannot stall it either.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../../shared/errors';

/** absent on Windows, where opening a pipe by path does not wait for a writer */
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const READ_FIX = 'give the path of a data file (.npz, .nwb) or a recipe (.recipe.json)';

/** `fix`: what to do instead, by default name a data file */
export function notAFileError(path: string, s: Stats, fix = READ_FIX): AppError {
  return new AppError('BAD_ARGUMENT', `${path} is ${kindOf(s)}, not a file: ${fix}.`, { file: basename(path) });
}

function statError(path: string, e: unknown): AppError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AppError('NOT_FOUND', `${path} does not exist: check the path.`, { file: basename(path) });
  return new AppError('IO', `${path} cannot be read (${code ?? String(e)}): check that it exists and that you may read it.`, { file: basename(path) });
}

/** The file's stats when it is a regular file (links followed); AppError NOT_FOUND, BAD_ARGUMENT or IO otherwise. */
export async function regularFileStats(path: string): Promise<Stats> {
  let s: Stats;
  try {
    s = await stat(path);
  } catch (e) {
    throw statError(path, e);
  }
  if (!s.isFile()) throw notAFileError(path, s);
  return s;
}

export interface OpenedFile {
  handle: FileHandle;
  size: number;
}

/** Opens a regular file for reading, never waiting on a pipe; the caller closes the handle. */
export async function openRegularFile(path: string): Promise<OpenedFile> {
  await regularFileStats(path);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NON_BLOCKING);
  } catch (e) {
    throw statError(path, e);
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw notAFileError(path, s);
    return { handle, size: s.size };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** The whole of a regular file as UTF-8 text (a recipe). */
export async function readRegularText(path: string): Promise<string> {
  const { handle } = await openRegularFile(path);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** What sits at `path` without following a link: null when nothing does. */
export async function entryAt(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw statError(path, e);
  }
}

/** The refusal to replace a file the caller did not say it may replace. */
export function existsError(path: string): AppError {
  return new AppError('EXISTS', `${path} already exists: choose another name, or confirm that it may be replaced (overwrite).`, { file: basename(path) });
}
