/**
 * Float32 .npy files of (rows × cols) read and written a window of rows at a time, at any row: the
 * posterior's smoother walks the recording backwards, reading the causal posterior the filter wrote
 * and writing the acausal one into place, so neither array is ever whole in memory. A writer's file
 * is `<file>.partial` at full size from the start (holes until written) and takes its name once
 * every window is in; a run that stops keeps the partial file.
 */
import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../../shared/errors';
import { npyHeader, parseNpyHeader } from '../../data';
import { PARTIAL_SUFFIX } from '../../engineProtocol';

/** enough for any header this project or NumPy writes (v1 headers stop at 64 KiB) */
const HEADER_PROBE_BYTES = 65_536 + 10;

/** Writes all of `bytes` at `position`, or at the file's current position when it is null. */
export async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number | null): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done, position === null ? null : position + done);
    done += bytesWritten;
  }
}

async function readAt(handle: FileHandle, into: Uint8Array, position: number, file: string): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await handle.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new AppError('IO', `${file} ends before the rows asked for: it is shorter than its header says (cut off?).`, { file });
    done += bytesRead;
  }
}

function asBytes(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

export class RowFileWriter {
  private constructor(
    readonly file: string,
    readonly partialFile: string,
    readonly cols: number,
    private readonly dataOffset: number,
    private readonly handle: FileHandle,
  ) {}

  static async create(file: string, rows: number, cols: number): Promise<RowFileWriter> {
    await mkdir(dirname(file), { recursive: true });
    const partialFile = `${file}${PARTIAL_SUFFIX}`;
    const handle = await open(partialFile, 'w');
    try {
      const header = npyHeader('<f4', cols === 1 ? [rows] : [rows, cols]);
      await writeFully(handle, header, 0);
      await handle.truncate(header.byteLength + rows * cols * 4);
      return new RowFileWriter(file, partialFile, cols, header.byteLength, handle);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Writes whole rows starting at `startRow`, row-major. */
  async write(startRow: number, values: Float32Array): Promise<void> {
    await writeFully(this.handle, asBytes(values), this.dataOffset + startRow * this.cols * 4);
  }

  /** Every row is in: the file takes its final name. */
  async finish(): Promise<void> {
    await this.handle.close();
    await rename(this.partialFile, this.file);
  }

  /** The run stopped: the partial file keeps what was written. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

export class RowFileReader {
  private constructor(
    readonly file: string,
    readonly rows: number,
    readonly cols: number,
    private readonly dataOffset: number,
    private readonly handle: FileHandle,
  ) {}

  /** Opens a C-order float32 .npy of 1 or 2 dimensions; anything else is refused, naming the file. */
  static async open(file: string): Promise<RowFileReader> {
    const handle = await open(file, 'r');
    try {
      const size = (await handle.stat()).size;
      const probe = new Uint8Array(Math.min(size, HEADER_PROBE_BYTES));
      await readAt(handle, probe, 0, file);
      const h = parseNpyHeader(probe, { file });
      const [rows = 1, cols = 1] = h.shape;
      if (h.dtype.kind !== 'float' || h.dtype.itemBytes !== 4 || h.bigEndian || h.fortranOrder || h.shape.length > 2) {
        throw new AppError('E090', `${file} is not a little-endian C-order float32 array of 1 or 2 dimensions; it was not written by this decode.`, { file });
      }
      if (h.dataOffset + rows * cols * 4 > size) {
        throw new AppError('E090', `${file} is shorter than its header's (${rows}, ${cols}) float32 array: it was cut off.`, { file });
      }
      return new RowFileReader(file, rows, cols, h.dataOffset, handle);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Rows [startRow, startRow + count) into `out` (or a new array), row-major. */
  async read(startRow: number, count: number, out = new Float32Array(count * this.cols)): Promise<Float32Array> {
    if (startRow < 0 || startRow + count > this.rows) {
      throw new AppError('INTERNAL', `rows ${startRow}..${startRow + count} are outside ${this.file}'s ${this.rows} rows`);
    }
    await readAt(this.handle, asBytes(out.subarray(0, count * this.cols)), this.dataOffset + startRow * this.cols * 4, this.file);
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}
