/**
 * Small files of the run store, written atomically (temporary file, then rename) so that a reader
 * in another process, or after a crash, sees the old content or the new, never half. A failed
 * write is reported about the runs folder, and leaves no temporary file behind. Every file is read
 * as untrusted: no link followed out of the runs folder, regular files only, size-capped, and
 * JSON parsed with bounded length and depth.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseBoundedJson } from '../../../shared/boundedJson';
import { AppError } from '../../../shared/errors';
import { readUntrustedText } from '../../data';
import { storeWrite } from './storeErrors';

/** the most a JSON file of the store (a status, a config, a report) may hold */
export const MAX_STORE_JSON_BYTES = 32 * 2 ** 20;

/** `runsDir`: the runs folder the file belongs to, named when the write fails */
export async function writeTextAtomic(path: string, text: string, runsDir: string): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await storeWrite(runsDir, async () => {
    try {
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
  });
}

export async function writeJsonAtomic(path: string, value: unknown, runsDir: string): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + '\n', runsDir);
}

/** What reading a store file gave: its value, nothing (no file), or why it cannot be used. */
export type StoreRead<T> = { value: T } | { missing: true } | { damaged: AppError };

/**
 * Reads and parses a JSON file of the store. `within`: the folder it must lie in once links are
 * resolved (by default the folder above its own: the runs folder for a run's file).
 */
export async function readStoreJson<T>(path: string, within = dirname(dirname(path))): Promise<StoreRead<T>> {
  try {
    const text = await readUntrustedText(path, { maxBytes: MAX_STORE_JSON_BYTES, within, fix: 'the run\'s folder is damaged; delete the run or replace the file' });
    return { value: parseBoundedJson(text, path) as T };
  } catch (e) {
    if (e instanceof AppError && e.code === 'NOT_FOUND') return { missing: true };
    if (e instanceof AppError) return { damaged: e };
    return { damaged: new AppError('IO', `${path} cannot be read (${String(e)}).`, { file: path }) };
  }
}

/** undefined when the file is missing, unreadable or damaged */
export async function readJson<T>(path: string): Promise<T | undefined> {
  const read = await readStoreJson<T>(path);
  return 'value' in read ? read.value : undefined;
}
