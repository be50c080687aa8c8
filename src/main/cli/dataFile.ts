/**
 * `--data FILE.npz` looked at before a run is made: a file that is no zip archive at all (a text
 * file, a .npy, a truncated download) would otherwise start a run that fails in the engine and
 * stays in the run store as a failed run. Only the first bytes are read; whatever is not a plain
 * file (missing, a folder, a pipe) is left to the loader, which says what it is.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { DataSource } from '../../shared/config';
import { isNwbSource } from '../data';
import { UsageError } from './cliTypes';

/** a local file header, or the end record of an empty archive */
const ZIP_STARTS = ['PK\x03\x04', 'PK\x05\x06'];
/** HDF5's signature, which every NWB file starts with */
const HDF5_START = '\x89HDF\r\n\x1a\n';

/** What a file's first bytes say it is; undefined when it is not a plain file that can be opened. */
export async function fileStart(path: string): Promise<'zip' | 'hdf5' | 'other' | undefined> {
  // O_NONBLOCK: a named pipe given as --data must not hold the command here
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    const start = head.subarray(0, bytesRead).toString('latin1');
    if (ZIP_STARTS.includes(start.slice(0, 4))) return 'zip';
    return start === HDF5_START ? 'hdf5' : 'other';
  } finally {
    await handle.close();
  }
}

export async function checkNpzStart(data: DataSource): Promise<void> {
  if (data.kind !== 'file' || isNwbSource(data.path)) return;
  const start = await fileStart(data.path);
  if (start === 'hdf5') throw new UsageError(`--data ${data.path} is an HDF5 file, not a .npz: name it .nwb (or .h5) to read it as NWB, or give a .npz`);
  if (start === 'other') {
    throw new UsageError(`--data ${data.path} is not a .npz file (a .npz is a zip archive; this one starts otherwise): give a .npz, a .nwb or preset:NAME`);
  }
}
