/**
 * Small JSON files of the run store, written atomically (temporary file, then rename) so that a
 * reader in another process, or after a crash, sees the old content or the new, never half.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

export async function writeJsonAtomic(path: string, value: unknown, pretty = true): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(value, null, pretty ? 2 : undefined) + '\n');
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** undefined when the file is missing or unreadable */
export async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
