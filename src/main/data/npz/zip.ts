/**
 * A small zip reader for .npz files: reads the end-of-central-directory record, the central directory
 * and then each member by offset, so a large file is never loaded whole. Sizes come from the central
 * directory (NumPy writes zip64 local headers whose sizes are placeholders). Stored and deflated members.
 */
import type { AppError } from '../../../shared/errors';
import { crc32 } from './crc32';
import { inflateBounded } from './inflate';
import { openRegularFile } from '../files';
import { checkLayout, checkLocalHeader, localHeaderLength, zipError, type ZipEntry } from './zipLayout';

export type { ZipEntry } from './zipLayout';

/** Random access to bytes, from a file or from memory. */
export interface ByteSource {
  readonly name: string;
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** one member read whole may not exceed this (larger ones are read in streaming mode only) */
const MAX_MEMBER_BYTES = 2 ** 31 - 1;
/** the most members an archive may list: a .npz holds a few arrays per electrode */
export const MAX_ZIP_MEMBERS = 65_536;
/** deflate cannot expand data by more than ~1032:1; a directory claiming more is corrupt */
const MAX_DEFLATE_RATIO = 1032;

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;

export function memorySource(bytes: Uint8Array, name = 'memory.npz'): ByteSource {
  return {
    name,
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    close: async () => undefined,
  };
}

export async function fileSource(path: string, name = path): Promise<ByteSource> {
  const { handle: fh, size } = await openRegularFile(path);
  return {
    name,
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(n);
      let done = 0;
      while (done < n) {
        const { bytesRead } = await fh.read(buf, done, n - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === n ? buf : buf.subarray(0, done);
    },
    close: () => fh.close(),
  };
}

function u64(view: DataView, at: number, file: string): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw zipError(file, 'has a zip64 size or offset too large to read.');
  return Number(v);
}

interface Directory {
  count: number;
  offset: number;
  size: number;
}

async function findDirectory(src: ByteSource): Promise<Directory> {
  const file = src.name;
  if (src.size === 0) throw zipError(file, 'is empty (0 bytes); expected a .npz (zip) file.');
  if (src.size < 22) throw zipError(file, `is not a zip/.npz file (only ${src.size} bytes).`);
  const tailLength = Math.min(src.size, 22 + 0xffff);
  const tailStart = src.size - tailLength;
  const tail = await src.read(tailStart, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      at = i;
      break;
    }
  }
  if (at < 0) {
    const head = await src.read(0, 4);
    const looksZip = head[0] === 0x50 && head[1] === 0x4b;
    throw zipError(file, looksZip
      ? 'is truncated or corrupt: the zip end-of-central-directory record is missing.'
      : 'is not a zip/.npz file (no zip signature); expected the output of numpy.savez.');
  }
  let dir: Directory = { count: view.getUint16(at + 10, true), size: view.getUint32(at + 12, true), offset: view.getUint32(at + 16, true) };
  const needs64 = dir.count === 0xffff || dir.size === 0xffffffff || dir.offset === 0xffffffff;
  const locAt = at - 20;
  if (locAt >= 0 && view.getUint32(locAt, true) === ZIP64_LOCATOR_SIG) {
    const recordOffset = u64(view, locAt + 8, file);
    const rec = await src.read(recordOffset, 56);
    const rv = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
    if (rec.length < 56 || rv.getUint32(0, true) !== ZIP64_EOCD_SIG) throw zipError(file, 'has a corrupt zip64 end-of-central-directory record.');
    dir = { count: u64(rv, 32, file), size: u64(rv, 40, file), offset: u64(rv, 48, file) };
  } else if (needs64) {
    throw zipError(file, 'is truncated or corrupt: the zip64 end-of-central-directory locator is missing.');
  }
  if (dir.offset + dir.size > src.size) throw zipError(file, 'is truncated: its central directory lies beyond the end of the file.');
  return dir;
}

function readZip64Extra(view: DataView, start: number, length: number, entry: ZipEntry, file: string): void {
  let p = start;
  while (p + 4 <= start + length) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001) {
      let q = p + 4;
      if (entry.uncompressedSize === 0xffffffff) { entry.uncompressedSize = u64(view, q, file); q += 8; }
      if (entry.compressedSize === 0xffffffff) { entry.compressedSize = u64(view, q, file); q += 8; }
      if (entry.localHeaderOffset === 0xffffffff) { entry.localHeaderOffset = u64(view, q, file); }
      return;
    }
    p += 4 + size;
  }
}

export async function readCentralDirectory(src: ByteSource): Promise<ZipEntry[]> {
  const file = src.name;
  const dir = await findDirectory(src);
  if (dir.count > MAX_ZIP_MEMBERS) {
    throw zipError(file, `lists ${dir.count} arrays, more than the ${MAX_ZIP_MEMBERS} a data file may hold: save one array per electrode and kind (spike_times_<e>, spike_waveform_features_<e>).`);
  }
  const bytes = await src.read(dir.offset, dir.size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < dir.count; i++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL_SIG) {
      throw zipError(file, `has a corrupt zip central directory (entry ${i} of ${dir.count}).`);
    }
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const entry: ZipEntry = {
      name: new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength)),
      nameLength,
      flags: view.getUint16(p + 8, true),
      method: view.getUint16(p + 10, true),
      crc: view.getUint32(p + 16, true),
      compressedSize: view.getUint32(p + 20, true),
      uncompressedSize: view.getUint32(p + 24, true),
      localHeaderOffset: view.getUint32(p + 42, true),
      end: dir.offset,
    };
    readZip64Extra(view, p + 46 + nameLength, extraLength, entry, file);
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  checkLayout(file, entries, dir.offset);
  return entries;
}

function entryError(src: ByteSource, entry: ZipEntry): (what: string) => AppError {
  return (what) => zipError(src.name, `member '${entry.name}' ${what}`, entry.name.replace(/\.npy$/, ''));
}

/** Checks a member's directory record against the file before anything is allocated for it. */
async function entryDataStart(src: ByteSource, entry: ZipEntry): Promise<number> {
  const bad = entryError(src, entry);
  if (entry.flags & 1) throw bad('is encrypted, which is not supported.');
  if (entry.method !== 0 && entry.method !== 8) {
    throw bad(`uses zip compression method ${entry.method}; only stored (0) and deflate (8) are supported — use numpy.savez or savez_compressed.`);
  }
  if (entry.method === 8 && entry.uncompressedSize > entry.compressedSize * MAX_DEFLATE_RATIO + 1024) {
    throw bad(`claims ${entry.uncompressedSize} bytes from ${entry.compressedSize} compressed ones, more than deflate can produce; the file is corrupt.`);
  }
  if (entry.localHeaderOffset + 30 > src.size) throw bad('has a corrupt or missing local header (file truncated?).');
  const fixed = await src.read(entry.localHeaderOffset, 30);
  const local = await src.read(entry.localHeaderOffset, localHeaderLength(fixed));
  const dataStart = checkLocalHeader(local, entry, bad);
  if (dataStart + entry.compressedSize > src.size) throw bad('is truncated: its data runs past the end of the file.');
  if (entry.method === 0 && entry.compressedSize !== entry.uncompressedSize) {
    throw bad(`is stored but the zip directory gives ${entry.compressedSize} stored and ${entry.uncompressedSize} uncompressed bytes; the file is corrupt.`);
  }
  return dataStart;
}

function inflated(src: ByteSource, entry: ZipEntry, dataStart: number): AsyncGenerator<Uint8Array> {
  const bad = entryError(src, entry);
  return inflateBounded((at, n) => src.read(dataStart + at, n), entry.compressedSize, entry.uncompressedSize, {
    tooMuch: (limit) => bad(`inflates to more than the ${limit} bytes its zip directory declares; inflation was stopped there. The file is corrupt or crafted.`),
    corrupt: (message) => bad(`cannot be inflated (${message}); the file is corrupt.`),
  });
}

/** A member read whole; a deflated one is inflated into a buffer of its declared size and never past it. */
export async function readEntry(src: ByteSource, entry: ZipEntry): Promise<Uint8Array> {
  const bad = entryError(src, entry);
  if (entry.uncompressedSize > MAX_MEMBER_BYTES) {
    throw bad(`holds ${entry.uncompressedSize} bytes, more than one array may take (2 GiB); save one array per electrode (spike_times_<e>, spike_waveform_features_<e>).`);
  }
  const dataStart = await entryDataStart(src, entry);
  let data: Uint8Array;
  if (entry.method === 0) {
    data = await src.read(dataStart, entry.compressedSize);
  } else {
    data = new Uint8Array(entry.uncompressedSize);
    let filled = 0;
    for await (const piece of inflated(src, entry, dataStart)) {
      data.set(piece, filled);
      filled += piece.length;
    }
    data = data.subarray(0, filled);
  }
  checkComplete(bad, data.length, crc32(data), entry);
  return data;
}

function checkComplete(bad: (what: string) => AppError, total: number, crc: number, entry: ZipEntry): void {
  if (total !== entry.uncompressedSize) throw bad(`has ${total} bytes but the zip directory says ${entry.uncompressedSize}; the file is corrupt.`);
  if (crc !== entry.crc) throw bad('fails its CRC-32 check; the file is corrupt.');
}

/**
 * A member's bytes in order, a chunk at a time (stored: read by offset; deflated: inflated as it
 * streams, never past its declared size), so a member larger than memory can be converted. The CRC
 * is checked at the end.
 */
export async function* entryChunks(src: ByteSource, entry: ZipEntry, chunkBytes = 8 << 20): AsyncGenerator<Uint8Array> {
  const bad = entryError(src, entry);
  const dataStart = await entryDataStart(src, entry);
  let crc = 0;
  let total = 0;
  const pieces = entry.method === 0 ? storedChunks(src, entry, dataStart, chunkBytes) : inflated(src, entry, dataStart);
  for await (const piece of pieces) {
    crc = crc32(piece, crc);
    total += piece.length;
    yield piece;
  }
  checkComplete(bad, total, crc, entry);
}

async function* storedChunks(src: ByteSource, entry: ZipEntry, dataStart: number, chunkBytes: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < entry.compressedSize; at += chunkBytes) {
    yield await src.read(dataStart + at, Math.min(chunkBytes, entry.compressedSize - at));
  }
}
