/**
 * `kde-profiler scan FILE.npz`: an .npz has no mapping to choose, so its scan says what the file
 * is (a clusterless-npz/1 file, an .npz without its format key or with another one's, no zip
 * at all), then checks it as `run` and `decode` read it and says how to use it or what is wrong.
 */
import { basename } from 'node:path';
import { NPZ_FORMAT, openNpz } from '../data';
import type { CliIo } from './cliTypes';
import { fileStart } from './dataFile';
import { printInspection } from './validateCommand';

export interface NpzIdentity {
  /** what the file is, in words */
  is: string;
  /** the value of its `format` key; null when it has none or is no readable .npz */
  format: string | null;
  arrays: number | null;
}

/** The `format` key's value, or null when the archive has none (or it is no string). */
async function formatOf(path: string): Promise<{ format: string | null; arrays: number } | undefined> {
  const npz = await openNpz(path).catch(() => undefined);
  if (!npz) return undefined;
  try {
    const value = npz.has('format') ? await npz.read('format').then((a) => a.data, () => null) : null;
    return { format: Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null, arrays: npz.keys.length };
  } finally {
    await npz.close();
  }
}

export async function npzIdentity(path: string): Promise<NpzIdentity> {
  const start = await fileStart(path);
  if (start === undefined) return { is: 'not a file that can be read (the check below says why)', format: null, arrays: null };
  if (start === 'hdf5') return { is: 'an HDF5 file named like an .npz: rename it .nwb (or .h5) to scan and import it as NWB', format: null, arrays: null };
  if (start === 'other') return { is: 'not a zip archive, so no .npz (an .npz is a zip of .npy arrays, as numpy.savez writes it)', format: null, arrays: null };
  const read = await formatOf(path);
  if (!read) return { is: 'a zip archive that cannot be read as an .npz (the check below says why)', format: null, arrays: null };
  const { format, arrays } = read;
  const of = `${arrays} array${arrays === 1 ? '' : 's'}`;
  if (format === NPZ_FORMAT) return { is: `a ${NPZ_FORMAT} file (${of})`, format, arrays };
  if (format === null) {
    return { is: `an .npz with no 'format' key (${of}): read as ${NPZ_FORMAT}, the layout run and decode read; save format="${NPZ_FORMAT}" with it to say so`, format, arrays };
  }
  return { is: `an .npz whose 'format' key says '${format}', not ${NPZ_FORMAT} (${of}): read as ${NPZ_FORMAT} all the same, which the check below holds it to`, format, arrays };
}

/** Scans one .npz: what it is, then every finding of the check `run` makes; the exit code as validate's. */
export async function scanNpz(path: string, io: CliIo, json: boolean): Promise<number> {
  const identity = await npzIdentity(path);
  if (!json) io.stdout.write(`${basename(path)}: ${identity.is}\n`);
  return printInspection({ kind: 'file', path }, io, json, { file: path, npz: identity });
}
