/**
 * A file that appears under its name whole or not at all: written to a hidden temporary name
 * beside it and renamed (one atomic step on one file system). A kill mid-write leaves the
 * temporary file, never half a file under the final name, and the temporary names follow one
 * pattern so that the next open of the folder can clear them.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** `.NAME.<8 hex>.tmp`: the temporary names this module and the CLI's output files use */
export const TEMPORARY_NAME = /^\..+\.[0-9a-f]{8}\.tmp$/;

/** A hidden, unique temporary name beside `target`, on the same file system (so rename is atomic). */
export function temporaryBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `bytes` to `target` through a temporary file and a rename; a failed write leaves no temporary file. */
export async function writeFileAtomic(target: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = temporaryBeside(target);
  try {
    await writeFile(tmp, bytes, { flag: 'wx' });
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** The system's reason for a failed write, in words a person acts on. */
export function writeFailureReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC)';
  if (code === 'EDQUOT') return 'the disk quota is used up (EDQUOT)';
  if (code === 'EEXIST') return 'a file of that name appeared meanwhile (EEXIST)';
  return code ?? String(e);
}
