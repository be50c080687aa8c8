/**
 * Reading a file that anyone with write access to a folder may have replaced (the runs folder, a
 * run's trace): a link that leads out of the folder, a named pipe, a device or a file larger than
 * its reader expects is refused with an error naming the file, before a byte is read. The open
 * follows no link at the last step and never waits on a pipe, so a swap between the check and the
 * open is caught by the handle's own stats. A gzip member inflates to at most a given size.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { basename, dirname, relative, isAbsolute, sep } from 'node:path';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { AppError } from '../../../shared/errors';
import { notAFileError, type OpenedFile } from './regularFile';

/** absent on Windows, where opening a pipe by path does not wait for a writer and links are rare */
const NO_WAIT_NO_LINK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

const gunzipAsync = promisify(gunzip);

/** the most a trace (trace.json.gz) may inflate to, and hold compressed */
export const MAX_TRACE_JSON_BYTES = 512 * 2 ** 20;
export const MAX_TRACE_GZ_BYTES = 256 * 2 ** 20;

export interface UntrustedReadOptions {
  /** the most bytes the file may hold */
  maxBytes: number;
  /** the folder the file must lie in once links are resolved (the runs folder) */
  within?: string;
  /** what to do about a refused file, ending the message */
  fix?: string;
}

const FIX = 'move or remove the file';

function ioError(path: string, e: unknown, fix: string): AppError {
  if (e instanceof AppError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AppError('NOT_FOUND', `${path} does not exist.`, { file: basename(path) });
  if (code === 'ELOOP') return new AppError('BAD_ARGUMENT', `${path} is a symbolic link, which is not followed here: ${fix}.`, { file: basename(path) });
  return new AppError('IO', `${path} cannot be read (${code ?? String(e)}): ${fix}.`, { file: basename(path) });
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Refuses a path whose folders lead, through links, out of `within`; and a link as the file itself. */
async function checkPlace(path: string, within: string | undefined, fix: string): Promise<void> {
  const s = await lstat(path);
  if (s.isSymbolicLink()) throw new AppError('BAD_ARGUMENT', `${path} is a symbolic link, which is not followed here: ${fix}.`, { file: basename(path) });
  if (!s.isFile()) throw notAFileError(path, s, fix);
  if (within === undefined) return;
  const [root, folder] = await Promise.all([realpath(within), realpath(dirname(path))]);
  if (!inside(root, folder)) throw new AppError('BAD_ARGUMENT', `${path} lies outside ${within} once links are followed: ${fix}.`, { file: basename(path) });
}

/** Opens a regular file for reading as readUntrustedFile checks it (size cap aside); the caller closes it. */
export async function openUntrustedFile(path: string, options: Omit<UntrustedReadOptions, 'maxBytes'> = {}): Promise<OpenedFile> {
  const fix = options.fix ?? FIX;
  try {
    await checkPlace(path, options.within, fix);
    const handle = await open(path, constants.O_RDONLY | NO_WAIT_NO_LINK);
    try {
      const s = await handle.stat();
      if (!s.isFile()) throw notAFileError(path, s, fix);
      return { handle, size: s.size };
    } catch (e) {
      await handle.close();
      throw e;
    }
  } catch (e) {
    throw ioError(path, e, fix);
  }
}

/** The whole of a regular file at `path`, refused when it is a link, not a regular file, too large or outside `within`. */
export async function readUntrustedFile(path: string, options: UntrustedReadOptions): Promise<Buffer> {
  const fix = options.fix ?? FIX;
  const { handle, size } = await openUntrustedFile(path, options);
  try {
    if (size > options.maxBytes) {
      throw new AppError('BAD_ARGUMENT', `${path} holds ${size} bytes, more than the ${options.maxBytes} a file of its kind may: ${fix}.`, { file: basename(path) });
    }
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The text of a file read as by readUntrustedFile. */
export async function readUntrustedText(path: string, options: UntrustedReadOptions): Promise<string> {
  return (await readUntrustedFile(path, options)).toString('utf8');
}

/** gzip's smallest member: a 10-byte header, an empty deflate stream and the 8-byte trailer */
const GZIP_MIN_BYTES = 18;

/**
 * The inflated size a gzip file's trailer declares (ISIZE, mod 2³²), refused naming `name` when it
 * is over `maxBytes` or the bytes are too short for gzip: what a trace handed on as it is (export
 * --format trace) is held to as well as one inflated here.
 */
export function gzipDeclaredSize(bytes: Uint8Array, maxBytes: number, name: string): number {
  const file = { file: basename(name) };
  if (bytes.length < GZIP_MIN_BYTES) throw new AppError('BAD_ARGUMENT', `${name} is ${bytes.length} bytes, too short for gzip: the file is damaged.`, file);
  const declared = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(bytes.length - 4);
  if (declared > maxBytes) {
    throw new AppError('BAD_ARGUMENT', `${name} declares ${declared} bytes inflated in its gzip trailer, more than the ${maxBytes} a trace may: the file is damaged or not a trace; it was not inflated.`, file);
  }
  return declared;
}

/**
 * Inflates gzip bytes to at most `maxBytes`; more is refused naming `name`. The trailer's ISIZE
 * (the inflated size mod 2³²) is read first: a file declaring more than the bound is refused
 * without inflating a byte, and inflation stops at what the file declares, so a file lying about
 * its size costs no more memory than it declared, give or take the 16 KiB piece zlib hands out
 * (zlib would refuse the mismatch at the end anyway).
 * Only single-member gzip is accepted, which is what the run writes.
 */
export async function gunzipBounded(bytes: Uint8Array, maxBytes: number, name: string): Promise<Buffer> {
  const file = { file: basename(name) };
  const declared = gzipDeclaredSize(bytes, maxBytes, name);
  try {
    return await gunzipAsync(bytes, { maxOutputLength: Math.max(1, declared) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new AppError('BAD_ARGUMENT', `${name} inflates to more than the ${declared} bytes its gzip trailer declares: the file is damaged or not a trace.`, file);
    }
    throw new AppError('BAD_ARGUMENT', `${name} cannot be inflated (${(e as Error).message}): the file is damaged.`, file);
  }
}

/** A run's trace.json.gz inflated, both sizes bounded. */
export async function readTraceJson(path: string, within?: string): Promise<Buffer> {
  const gz = await readUntrustedFile(path, { maxBytes: MAX_TRACE_GZ_BYTES, within });
  return gunzipBounded(gz, MAX_TRACE_JSON_BYTES, path);
}
