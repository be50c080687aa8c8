/**
 * A run's files checked against the free space of its folder before the work that makes them: a
 * long recording's likelihood and posterior are many gigabytes, and a disk that fills an hour in
 * loses the hour. Sizes are of float32 .npy files of (rows × columns), each with its header.
 */
import { statfs } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';

/** what a .npy header takes beside its data, at most */
const NPY_HEADER_BYTES = 128;

/** What a run will write: the bytes, and the parts in words. */
export interface OutputSize {
  bytes: number;
  parts: string;
}

/** the bytes of a float32 .npy of rows × cols */
export const npyBytes = (rows: number, cols: number): number => NPY_HEADER_BYTES + 4 * rows * cols;

/** The bytes a process may still write on the file system holding `dir`; undefined where the system does not say. */
export async function freeBytes(dir: string): Promise<number | undefined> {
  const s = await statfs(dir).catch(() => undefined);
  return s ? s.bavail * s.bsize : undefined;
}

export interface DiskCheck {
  /** the work, as the sentence begins: "the decode", "the run" */
  work: string;
  /** one more way out beside freeing space and another runs folder, where there is one */
  orElse?: string;
  /** the free bytes, where the caller measured them */
  free?: number;
}

/** Refuses work whose files will not fit where they go, naming the folder, the sizes and what to do. */
export async function refuseBeyondDisk(runDir: string, need: OutputSize, check: DiskCheck): Promise<void> {
  const available = check.free ?? (await freeBytes(runDir));
  if (available === undefined || need.bytes <= available) return;
  const elsewhere = 'give --runs-dir a folder on a disk with room (the --out copy is a hard link on the same disk)';
  const ways = check.orElse === undefined ? `free some space, or ${elsewhere}` : `free some space, ${elsewhere}, or ${check.orElse}`;
  throw new AppError('IO',
    `${check.work} writes about ${formatBytes(need.bytes)} (${need.parts}) into ${runDir}, and its disk has ${formatBytes(available)} free: ${ways}.`,
    { file: runDir });
}
