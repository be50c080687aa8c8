/**
 * Small files of the run store, written atomically (temporary file, then rename) so that a reader
 * in another process, or after a crash, sees the old content or the new, never half. A failed
 * write is reported about the runs folder, and leaves no temporary file behind.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { storeWrite } from './storeErrors';

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

/** undefined when the file is missing or unreadable */
export async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
