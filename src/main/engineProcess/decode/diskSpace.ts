/**
 * A decode's files checked against the free space of the runs folder before the work: a long
 * recording's likelihood and posterior are many gigabytes, and a disk that fills an hour in loses
 * the hour. The files are float32 .npy of (rows × columns); the posterior's are the causal and
 * acausal posteriors over every state bin, the state probabilities and the MAP position.
 */
import { statfs } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';
import type { StateSpace } from '../../engine/posterior';

/** what a .npy header takes beside its data, at most */
const NPY_HEADER_BYTES = 128;

export interface DecodeOutputSize {
  bytes: number;
  /** the parts, in words */
  parts: string;
}

const npyBytes = (rows: number, cols: number): number => NPY_HEADER_BYTES + 4 * rows * cols;

/** The decode's files: its likelihood (rows × bins) and, with a posterior, the posterior's four. */
export function decodeOutputSize(rows: number, likelihoodCols: number, posterior?: { space: StateSpace; positionDims: number }): DecodeOutputSize {
  const likelihood = npyBytes(rows, likelihoodCols);
  if (!posterior) return { bytes: likelihood, parts: `likelihood ${formatBytes(likelihood)}` };
  const { space, positionDims } = posterior;
  const post = 2 * npyBytes(rows, space.nStateBins) + npyBytes(rows, space.stateNames.length) + npyBytes(rows, positionDims);
  return { bytes: likelihood + post, parts: `likelihood ${formatBytes(likelihood)}, posterior ${formatBytes(post)}` };
}

/** The bytes a process may still write on the file system holding `dir`; undefined where the system does not say. */
export async function freeBytes(dir: string): Promise<number | undefined> {
  const s = await statfs(dir).catch(() => undefined);
  return s ? s.bavail * s.bsize : undefined;
}

/** Refuses a decode whose files will not fit where they go, naming the folder, the sizes and what to do. */
export async function refuseBeyondDisk(runDir: string, need: DecodeOutputSize, free?: number): Promise<void> {
  const available = free ?? (await freeBytes(runDir));
  if (available === undefined || need.bytes <= available) return;
  throw new AppError('IO',
    `the decode writes about ${formatBytes(need.bytes)} (${need.parts}) into ${runDir}, and its disk has ${formatBytes(available)} free: ` +
    'free some space, or give --runs-dir a folder on a disk with room (the --out copy is a hard link on the same disk).',
    { file: runDir });
}
