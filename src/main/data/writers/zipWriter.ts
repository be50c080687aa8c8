/**
 * A small zip writer for .npz files: stored (uncompressed) members, so every array can be read back
 * from its offset, written one member at a time to a temporary file that is renamed into place only
 * when the archive is complete (an interrupted export leaves no half-written file). zip64 records are
 * added when a size or offset needs them.
 */
import { randomBytes } from 'node:crypto';
import { link, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError, BugError } from '../../../shared/errors';
import { crc32 } from '../npz';
import { entryAt, existsError } from '../files';

const U32_MAX = 0xffffffff;
const U16_MAX = 0xffff;
/** what link() answers on file systems that have no hard links (FAT, some network shares) */
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

interface Written {
  name: Uint8Array;
  crc: number;
  size: number;
  offset: number;
}

/** DOS date/time fields for 1980-01-01 00:00: a fixed stamp keeps exports byte-reproducible */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

function zip64Extra(fields: number[]): Uint8Array {
  const out = new Uint8Array(4 + fields.length * 8);
  const v = new DataView(out.buffer);
  v.setUint16(0, 0x0001, true);
  v.setUint16(2, fields.length * 8, true);
  fields.forEach((x, i) => v.setBigUint64(4 + i * 8, BigInt(x), true));
  return out;
}

function localHeader(w: Written): Uint8Array {
  const big = w.size >= U32_MAX;
  const extra = big ? zip64Extra([w.size, w.size]) : new Uint8Array(0);
  const out = new Uint8Array(30 + w.name.length + extra.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, big ? 45 : 20, true);
  v.setUint16(6, 0x0800, true);
  v.setUint16(8, 0, true);
  v.setUint16(10, DOS_TIME, true);
  v.setUint16(12, DOS_DATE, true);
  v.setUint32(14, w.crc, true);
  v.setUint32(18, big ? U32_MAX : w.size, true);
  v.setUint32(22, big ? U32_MAX : w.size, true);
  v.setUint16(26, w.name.length, true);
  v.setUint16(28, extra.length, true);
  out.set(w.name, 30);
  out.set(extra, 30 + w.name.length);
  return out;
}

function centralHeader(w: Written): Uint8Array {
  const bigSize = w.size >= U32_MAX;
  const bigOffset = w.offset >= U32_MAX;
  const fields = [...(bigSize ? [w.size, w.size] : []), ...(bigOffset ? [w.offset] : [])];
  const extra = fields.length > 0 ? zip64Extra(fields) : new Uint8Array(0);
  const out = new Uint8Array(46 + w.name.length + extra.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x02014b50, true);
  v.setUint16(4, 45, true);
  v.setUint16(6, fields.length > 0 ? 45 : 20, true);
  v.setUint16(8, 0x0800, true);
  v.setUint16(10, 0, true);
  v.setUint16(12, DOS_TIME, true);
  v.setUint16(14, DOS_DATE, true);
  v.setUint32(16, w.crc, true);
  v.setUint32(20, bigSize ? U32_MAX : w.size, true);
  v.setUint32(24, bigSize ? U32_MAX : w.size, true);
  v.setUint16(28, w.name.length, true);
  v.setUint16(30, extra.length, true);
  v.setUint32(42, bigOffset ? U32_MAX : w.offset, true);
  out.set(w.name, 46);
  out.set(extra, 46 + w.name.length);
  return out;
}

function endRecords(count: number, cdOffset: number, cdSize: number): Uint8Array {
  const needs64 = count >= U16_MAX || cdOffset >= U32_MAX || cdSize >= U32_MAX;
  const out = new Uint8Array((needs64 ? 56 + 20 : 0) + 22);
  const v = new DataView(out.buffer);
  let p = 0;
  if (needs64) {
    v.setUint32(0, 0x06064b50, true);
    v.setBigUint64(4, 44n, true);
    v.setUint16(12, 45, true);
    v.setUint16(14, 45, true);
    v.setBigUint64(24, BigInt(count), true);
    v.setBigUint64(32, BigInt(count), true);
    v.setBigUint64(40, BigInt(cdSize), true);
    v.setBigUint64(48, BigInt(cdOffset), true);
    v.setUint32(56, 0x07064b50, true);
    v.setBigUint64(64, BigInt(cdOffset + cdSize), true);
    v.setUint32(72, 1, true);
    p = 76;
  }
  v.setUint32(p, 0x06054b50, true);
  v.setUint16(p + 8, Math.min(count, U16_MAX), true);
  v.setUint16(p + 10, Math.min(count, U16_MAX), true);
  v.setUint32(p + 12, Math.min(cdSize, U32_MAX), true);
  v.setUint32(p + 16, Math.min(cdOffset, U32_MAX), true);
  return out;
}

export class ZipWriter {
  private readonly written: Written[] = [];
  private offset = 0;
  private done = false;

  private constructor(private readonly fh: FileHandle, readonly path: string, private readonly tmp: string) {}

  /** Starts an archive at `path`; nothing appears there until finish(). */
  static async create(path: string): Promise<ZipWriter> {
    // beside the target, so the final rename stays on one file system; created exclusively, so
    // never an old file or a pipe that happens to carry the name
    const tmp = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      return new ZipWriter(await open(tmp, 'wx'), path, tmp);
    } catch (e) {
      throw new AppError('IO', `${basename(path)}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, { file: basename(path) });
    }
  }

  private async write(bytes: Uint8Array): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.fh.write(bytes, done, bytes.length - done, this.offset + done);
      done += bytesWritten;
    }
    this.offset += bytes.length;
  }

  /** Adds one stored member made of `parts` written back to back (e.g. an .npy header and its data). */
  async add(name: string, parts: Uint8Array[]): Promise<void> {
    if (this.done) throw new BugError('ZipWriter.add after finish');
    let crc = 0;
    let size = 0;
    for (const p of parts) {
      crc = crc32(p, crc);
      size += p.length;
    }
    const w: Written = { name: new TextEncoder().encode(name), crc, size, offset: this.offset };
    await this.write(localHeader(w));
    for (const p of parts) await this.write(p);
    this.written.push(w);
  }

  /**
   * Writes the central directory, closes, and moves the archive into place. Without `overwrite`
   * a file already at the path stays and the call fails with EXISTS.
   */
  async finish(options: { overwrite?: boolean } = {}): Promise<void> {
    const cdOffset = this.offset;
    for (const w of this.written) await this.write(centralHeader(w));
    await this.write(endRecords(this.written.length, cdOffset, this.offset - cdOffset));
    this.done = true;
    await this.fh.close();
    if (options.overwrite) await rename(this.tmp, this.path);
    else await this.placeWithoutReplacing();
  }

  /**
   * A hard link appears only where nothing is (the check and the write are one step); file
   * systems without hard links fall back to a check just before the rename.
   */
  private async placeWithoutReplacing(): Promise<void> {
    try {
      await link(this.tmp, this.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw existsError(this.path);
      if (!LINK_UNSUPPORTED.has(code ?? '')) throw e;
      if (await entryAt(this.path)) throw existsError(this.path);
      await rename(this.tmp, this.path);
      return;
    }
    await rm(this.tmp, { force: true });
  }

  /** Drops a partly written archive. */
  async abort(): Promise<void> {
    this.done = true;
    await this.fh.close().catch(() => undefined);
    await rm(this.tmp, { force: true });
  }
}
