/**
 * A .npz archive opened lazily: the member list comes from the zip directory, each array is read and
 * parsed only when asked for.
 */
import { basename } from 'node:path';
import { AppError } from '../../../shared/errors';
import { checkNpyHeader, parseNpy, parseNpyHeader, type NpyArray } from './npy';
import { entryChunks, fileSource, memorySource, readCentralDirectory, readEntry, type ByteSource, type ZipEntry } from './zip';

export interface NpzFile {
  /** the name used in messages (the file's base name) */
  readonly file: string;
  /** array names, without the .npy suffix, in archive order */
  readonly keys: string[];
  has(key: string): boolean;
  /** reads and parses one member; throws AppError E060/E061/E090 */
  read(key: string): Promise<NpyArray>;
  /** a member's uncompressed size in bytes (header included), from the zip directory */
  size(key: string): number;
  /** a member's raw bytes in order, a chunk at a time, without holding it whole */
  chunks(key: string, chunkBytes?: number): AsyncGenerator<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Members larger than this have their .npy header checked before they are inflated whole; smaller
 * ones are checked the same way once read. Either way a member must be exactly what its header
 * declares, and inflation stops at its declared size, so what a file inflates to is bounded by the
 * arrays it declares.
 */
const PEEK_ABOVE_BYTES = 1 << 20;
const PEEK_CHUNK_BYTES = 4096;

/** Checks a member's .npy header (shape, dtype, string caps) against its size, inflating only its first bytes. */
async function checkDeclared(src: ByteSource, entry: ZipEntry, ctx: { file: string; key: string }): Promise<void> {
  const chunks = entryChunks(src, entry, PEEK_CHUNK_BYTES);
  try {
    const first = await chunks.next();
    if (first.done) return;
    checkNpyHeader(parseNpyHeader(first.value, ctx), entry.uncompressedSize, ctx, true);
  } finally {
    await chunks.return(undefined);
  }
}

async function openSource(src: ByteSource): Promise<NpzFile> {
  let entries: ZipEntry[];
  try {
    entries = await readCentralDirectory(src);
  } catch (e) {
    await src.close();
    throw e;
  }
  const byKey = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    byKey.set(entry.name.replace(/\.npy$/, ''), entry);
  }
  const file = src.name;
  return {
    file,
    keys: [...byKey.keys()],
    has: (key) => byKey.has(key),
    async read(key) {
      const entry = byKey.get(key);
      if (!entry) throw new AppError('E001', `${file}: required array '${key}' not found.`, { file, key });
      if (entry.uncompressedSize > PEEK_ABOVE_BYTES) await checkDeclared(src, entry, { file, key });
      const bytes = await readEntry(src, entry);
      return parseNpy(bytes, { file, key }, true);
    },
    size: (key) => byKey.get(key)?.uncompressedSize ?? 0,
    chunks(key, chunkBytes) {
      const entry = byKey.get(key);
      if (!entry) throw new AppError('E001', `${file}: required array '${key}' not found.`, { file, key });
      return entryChunks(src, entry, chunkBytes);
    },
    close: () => src.close(),
  };
}

export async function openNpz(path: string): Promise<NpzFile> {
  return openSource(await fileSource(path, basename(path)));
}

/** The same over bytes already in memory (tests, files received over the wire). */
export async function openNpzBytes(bytes: Uint8Array, name = 'memory.npz'): Promise<NpzFile> {
  return openSource(memorySource(bytes, name));
}
