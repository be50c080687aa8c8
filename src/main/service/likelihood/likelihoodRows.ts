/**
 * Rows of a saved likelihood (.npy, float32 or float64, time × position bins, C order) read with
 * positioned reads, a bounded chunk at a time: a production decode's file runs to gigabytes, so the
 * service never holds more than one chunk of it. Only the header is parsed up front.
 */
import type { FileHandle } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { openUntrustedFile, parseNpyHeader } from '../../data';

/** bytes read at once: big enough that a read is cheap next to the work on its rows */
export const ROW_CHUNK_BYTES = 4 * 1024 * 1024;
/** the magic, version and header length of a version 2 or 3 header; version 1 needs 10 */
const PREAMBLE_BYTES = 12;
/** numpy writes headers of a few hundred bytes; far more means the file is not what it claims */
const MAX_HEADER_BYTES = 1024 * 1024;
const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** the most position bins one row may hold (a 2-D grid of 2000 × 2000): a row is read whole */
export const MAX_LIKELIHOOD_BINS = 4_000_000;

export interface LikelihoodLayout {
  file: string;
  nTime: number;
  nBins: number;
  /** where row 0 starts */
  dataOffset: number;
  itemBytes: 4 | 8;
  /** the file's byte order differs from this machine's */
  swap: boolean;
}

async function readFully(handle: FileHandle, into: Uint8Array, position: number, file: string): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await handle.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) {
      throw new AppError('IO', `${file} ends early: ${into.byteLength - done} bytes missing at offset ${position + done}. Run the decode again.`, { file });
    }
    done += bytesRead;
  }
}

export interface LayoutOptions {
  /**
   * Read a 1-D array of n values as n rows of one value: the decode writes a one-column file
   * (the MAP position per row) without its second axis, as NLD does.
   */
  acceptVector?: boolean;
}

/** The layout of an open likelihood file; refuses anything but a 2-D float array in C order, whole. */
export async function likelihoodLayout(handle: FileHandle, file: string, options: LayoutOptions = {}): Promise<LikelihoodLayout> {
  const { size } = await handle.stat();
  const preamble = new Uint8Array(Math.min(size, PREAMBLE_BYTES));
  await readFully(handle, preamble, 0, file);
  const view = new DataView(preamble.buffer);
  // the header's own length: 2 bytes after the version in format 1, 4 bytes in 2 and 3
  const headerEnd = preamble[6] === 1 && preamble.length >= 10 ? 10 + view.getUint16(8, true) : preamble.length >= 12 ? 12 + view.getUint32(8, true) : 0;
  // anything else (not an .npy, or an absurd header) is refused by the parser with its own message
  const head = headerEnd > preamble.length && headerEnd <= MAX_HEADER_BYTES ? new Uint8Array(Math.min(size, headerEnd)) : preamble;
  if (head !== preamble) await readFully(handle, head, 0, file);
  const header = parseNpyHeader(head, { file });
  const { dtype } = header;
  const shape = options.acceptVector && header.shape.length === 1 ? [header.shape[0]!, 1] : header.shape;
  if (dtype.kind !== 'float' || (dtype.itemBytes !== 4 && dtype.itemBytes !== 8) || shape.length !== 2 || header.fortranOrder) {
    throw new AppError('IO', `${file} is not a 2-D float32/float64 array in C order (it is ${dtype.descr}, shape (${shape.join(', ')})).`, { file });
  }
  const [nTime, nBins] = shape as [number, number];
  if (nBins > MAX_LIKELIHOOD_BINS) {
    throw new AppError('IO', `${file} declares ${nBins} position bins per row, more than the ${MAX_LIKELIHOOD_BINS} a likelihood may hold: the file is damaged or not a likelihood.`, { file });
  }
  const needed = header.dataOffset + nTime * nBins * dtype.itemBytes;
  if (size < needed) {
    throw new AppError('IO', `${file} is truncated: shape (${nTime}, ${nBins}) needs ${needed} bytes, the file has ${size}. Run the decode again.`, { file });
  }
  return { file, nTime, nBins, dataOffset: header.dataOffset, itemBytes: dtype.itemBytes, swap: header.bigEndian === HOST_LITTLE };
}

function swapBytes(bytes: Uint8Array, itemBytes: number): void {
  for (let i = 0; i < bytes.length; i += itemBytes) bytes.subarray(i, i + itemBytes).reverse();
}

/**
 * Calls onChunk with consecutive runs of rows in [startRow, endRow), row-major: values holds
 * count × nBins numbers (the buffer is reused, so read it before returning).
 */
export async function forEachRowChunk(
  handle: FileHandle,
  layout: LikelihoodLayout,
  startRow: number,
  endRow: number,
  onChunk: (firstRow: number, count: number, values: Float32Array | Float64Array) => void,
  chunkBytes = ROW_CHUNK_BYTES,
): Promise<void> {
  const rowBytes = layout.nBins * layout.itemBytes;
  if (rowBytes === 0) return;
  const rowsPerChunk = Math.max(1, Math.min(endRow - startRow, Math.floor(chunkBytes / rowBytes)));
  const buffer = new ArrayBuffer(rowsPerChunk * rowBytes);
  for (let r = startRow; r < endRow; r += rowsPerChunk) {
    const count = Math.min(rowsPerChunk, endRow - r);
    const bytes = new Uint8Array(buffer, 0, count * rowBytes);
    await readFully(handle, bytes, layout.dataOffset + r * rowBytes, layout.file);
    if (layout.swap) swapBytes(bytes, layout.itemBytes);
    const n = count * layout.nBins;
    onChunk(r, count, layout.itemBytes === 4 ? new Float32Array(buffer, 0, n) : new Float64Array(buffer, 0, n));
  }
}

/**
 * Opens a likelihood file for reading; null when there is none. A link, a named pipe or a device
 * there is refused without waiting on it.
 */
export async function openLikelihood(file: string): Promise<FileHandle | null> {
  try {
    return (await openUntrustedFile(file, { fix: 'the run\'s likelihood is not one it wrote; delete the run or the file' })).handle;
  } catch (e) {
    if ((e as AppError).code === 'NOT_FOUND') return null;
    throw new AppError('IO', `cannot read ${file}: ${(e as Error).message}`, { file });
  }
}
