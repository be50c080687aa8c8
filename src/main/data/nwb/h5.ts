/**
 * h5wasm behind a small, safe surface: the library is loaded once on first use (hiding Electron's
 * `navigator`, which its environment check mistakes for a browser), HDF5 errors throw instead of
 * printing, and every failure becomes an AppError naming the file and the HDF5 path.
 */
import { basename } from 'node:path';
import type { Dataset as H5Dataset, File as H5File, Group as H5Group } from 'h5wasm/node';
import { AppError } from '../../../shared/errors';
import { openRegularFile } from '../files';

type H5Lib = typeof import('h5wasm/node').default;

let loading: Promise<H5Lib> | null = null;

async function importH5(): Promise<H5Lib> {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  if (saved?.configurable) Object.defineProperty(globalThis, 'navigator', { value: undefined, configurable: true });
  try {
    const lib = (await import('h5wasm/node')).default;
    const module = await lib.ready;
    // Without it HDF5 prints its error stack to stderr and the wrapper throws a bare "name not defined".
    module.activate_throwing_error_handler();
    return lib;
  } finally {
    if (saved?.configurable) Object.defineProperty(globalThis, 'navigator', saved);
  }
}

export function h5Library(): Promise<H5Lib> {
  loading ??= importH5().catch((e: unknown) => {
    loading = null;
    throw new AppError('INTERNAL', `The HDF5 reader (h5wasm) could not be loaded: ${(e as Error).message}`);
  });
  return loading;
}

const SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
/** HDF5 puts its superblock at 0, 512, 1024, 2048, … */
const SIGNATURE_OFFSETS = [0, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

/** The most useful line of an HDF5 error stack ("minor: …" of the deepest entry), or the message. */
function shortReason(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const minors = [...text.matchAll(/minor:\s*(.+)/g)].map((m) => m[1]!.trim());
  return minors.length > 0 ? minors[minors.length - 1]! : text.split('\n')[0]!.slice(0, 200);
}

function h5Error(file: string, path: string | undefined, e: unknown, what = 'cannot be read'): AppError {
  if (e instanceof AppError) return e;
  const where = path ? ` '${path}'` : '';
  return new AppError('E090', `${file}:${where} ${what} (${shortReason(e)}); the file may be truncated or corrupt.`,
    { file, key: path, hint: 'Re-export the file from its source, or check that it was copied completely.' });
}

/** Runs one HDF5 call, turning a library failure into an AppError for this file and path. */
export function guard<T>(file: string, path: string | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw h5Error(file, path, e);
  }
}

async function checkSignature(path: string, file: string): Promise<void> {
  const { handle, size } = await openRegularFile(path);
  try {
    if (size === 0) throw new AppError('E090', `${file}: is empty (0 bytes); expected an NWB/HDF5 file.`, { file });
    const buf = new Uint8Array(8);
    for (const at of SIGNATURE_OFFSETS) {
      if (at + 8 > size) break;
      await handle.read(buf, 0, 8, at);
      if (SIGNATURE.every((b, i) => buf[i] === b)) return;
    }
    throw new AppError('E090', `${file}: is not an HDF5 file (no HDF5 signature); expected an NWB (.nwb) or HDF5 (.h5) file.`, { file });
  } finally {
    await handle.close();
  }
}

export interface H5Handle {
  /** base name, for messages */
  readonly file: string;
  readonly path: string;
  readonly root: H5File;
  close(): void;
}

/** Opens an HDF5 file read-only after checking that it is a regular file, not empty, and carries the signature. */
export async function openH5(path: string): Promise<H5Handle> {
  const file = basename(path);
  await checkSignature(path, file);
  const lib = await h5Library();
  let root: H5File;
  try {
    root = new lib.File(path, 'r');
  } catch (e) {
    throw h5Error(file, undefined, e, 'cannot be opened as HDF5');
  }
  let closed = false;
  return {
    file,
    path,
    root,
    close() {
      if (closed) return;
      closed = true;
      try {
        root.close();
      } catch {
        // closing a file whose reads failed can fail too; nothing is left to release
      }
    },
  };
}

export type H5Entity = H5Group | H5Dataset;

export function isGroup(e: unknown): e is H5Group {
  return typeof e === 'object' && e !== null && (e as { type?: string }).type === 'Group';
}

function isDataset(e: unknown): e is H5Dataset {
  return typeof e === 'object' && e !== null && (e as { type?: string }).type === 'Dataset';
}

/**
 * The first link along an absolute path that points into another file, or null. HDF5 opens the
 * other file to follow one, whatever it is (a FIFO blocks the read for good), so such links are
 * found without following them and never followed.
 */
export function externalLinkOn(h: H5Handle, path: string): { at: string; file: string } | null {
  let at = '';
  for (const part of path.split('/').filter(Boolean)) {
    at += `/${part}`;
    let link: { filename?: unknown } | null | undefined;
    try {
      link = h.root.get_external_link(at) as { filename?: unknown } | null | undefined;
    } catch {
      return null;
    }
    if (typeof link?.filename === 'string' && link.filename !== '') return { at, file: link.filename };
  }
  return null;
}

/** The object at an absolute path, or null when absent or behind a link to another file (never throws for a missing name). */
export function getEntity(h: H5Handle, path: string): H5Entity | null {
  if (externalLinkOn(h, path)) return null;
  let e: unknown;
  try {
    e = h.root.get(path);
  } catch {
    return null;
  }
  return isGroup(e) || isDataset(e) ? e : null;
}

/**
 * The files a virtual dataset's values lie in, or null for an ordinary dataset. Reading a virtual
 * dataset makes HDF5 open each of those files, whatever they are, just as following an external
 * link does; h5wasm lists the mappings (H5Pget_layout is H5D_VIRTUAL) under `virtual_sources`,
 * present, if empty, on every virtual dataset and on no other.
 */
export function virtualSourcesOf(d: H5Dataset): string[] | null {
  const meta = d.metadata as { virtual_sources?: { file_name?: unknown }[] };
  if (!('virtual_sources' in meta)) return null;
  return [...new Set((meta.virtual_sources ?? []).map((v) => (typeof v.file_name === 'string' ? v.file_name : '?')))];
}

/**
 * The dataset at an absolute path, or null when absent or behind a link to another file; a
 * virtual dataset is refused, naming the files it would open, and never read.
 */
export function getDataset(h: H5Handle, path: string): H5Dataset | null {
  const e = getEntity(h, path);
  if (!isDataset(e)) return null;
  const sources = guard(h.file, path, () => virtualSourcesOf(e));
  if (sources) {
    throw new AppError('E090', `${h.file}: '${path}' is a virtual dataset whose values lie in ${sources.length > 0 ? sources.join(', ') : 'other datasets'}: it is not read, since reading it would open those files.`,
      { file: h.file, key: path, hint: 'Copy its data into the file (h5repack, or re-export the NWB file) and import that.' });
  }
  return e;
}

export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}
