/**
 * Where a zip's members lie, checked before any is read: the central directory must describe
 * members that each own their bytes (no two overlapping, none running into the directory), and each
 * member's local header must agree with its directory record. A crafted directory that lists one
 * deflated member many times (an overlapping-entry zip bomb) is refused here, before anything inflates.
 */
import { AppError } from '../../../shared/errors';

export interface ZipEntry {
  name: string;
  /** the name's length in bytes as stored */
  nameLength: number;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** where the next member (or the central directory) begins: this member's data must end by then */
  end: number;
}

const LOCAL_SIG = 0x04034b50;
const LOCAL_FIXED_BYTES = 30;
const U32_PLACEHOLDER = 0xffffffff;
/** general-purpose flag bit 3: sizes and CRC follow the data, the local header holds zeros */
const DATA_DESCRIPTOR = 8;

export function zipError(file: string, what: string, key?: string): AppError {
  return new AppError('E090', `${file}: ${what}`, { file, key, hint: 'Re-save the file with numpy.savez (or savez_compressed).' });
}

/**
 * Refuses names listed twice and members whose bytes overlap another's or the central directory,
 * and sets each entry's `end`. Only the directory is needed: a local header takes at least its fixed
 * part and the name, so each member spans at least that plus its compressed size.
 */
export function checkLayout(file: string, entries: ZipEntry[], directoryOffset: number): void {
  const names = new Set<string>();
  for (const e of entries) {
    if (names.has(e.name)) throw zipError(file, `lists member '${e.name}' twice; a .npz holds each array once. The file is corrupt or crafted and was not read.`, e.name);
    names.add(e.name);
  }
  const byOffset = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const e = byOffset[i]!;
    const next = byOffset[i + 1];
    const end = next ? next.localHeaderOffset : directoryOffset;
    const least = e.localHeaderOffset + LOCAL_FIXED_BYTES + e.nameLength + e.compressedSize;
    if (least > end) {
      const key = e.name.replace(/\.npy$/, '');
      if (!next) {
        throw zipError(file, `member '${e.name}' is truncated or corrupt: its ${e.compressedSize} compressed bytes from byte ${e.localHeaderOffset} run past byte ${end}, where the zip directory begins. The file was not read.`, key);
      }
      throw zipError(file, `member '${e.name}' overlaps member '${next.name}' (its ${e.compressedSize} compressed bytes from byte ${e.localHeaderOffset} run past byte ${end}, where '${next.name}' begins): the directory lists members that share bytes, as a zip bomb does. The file was not read.`, key);
    }
    e.end = end;
  }
}

function zip64LocalSizes(view: DataView, start: number, length: number): { uncompressed?: number; compressed?: number } {
  for (let p = start; p + 4 <= start + length;) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001 && size >= 16 && p + 20 <= start + length) {
      return { uncompressed: Number(view.getBigUint64(p + 4, true)), compressed: Number(view.getBigUint64(p + 12, true)) };
    }
    p += 4 + size;
  }
  return {};
}

/** A local size agrees when it equals the directory's, or is a zip64 placeholder whose extra field agrees (or is still zero). */
function sizeAgrees(local: number, extra: number | undefined, directory: number): boolean {
  if (local !== U32_PLACEHOLDER) return local === directory;
  return extra === undefined || extra === 0 || extra === directory;
}

/**
 * Checks a member's local header (`local`: its fixed part, name and extra field) against its
 * directory record and returns where its data starts. `bad` makes the error naming the member.
 */
export function checkLocalHeader(local: Uint8Array, entry: ZipEntry, bad: (what: string) => AppError): number {
  const view = new DataView(local.buffer, local.byteOffset, local.byteLength);
  if (local.length < LOCAL_FIXED_BYTES || view.getUint32(0, true) !== LOCAL_SIG) throw bad('has a corrupt or missing local header (file truncated?).');
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  if (local.length < LOCAL_FIXED_BYTES + nameLength + extraLength) throw bad('has a truncated local header (file truncated?).');
  const localName = new TextDecoder().decode(local.subarray(LOCAL_FIXED_BYTES, LOCAL_FIXED_BYTES + nameLength));
  const differs = (what: string): AppError => bad(`disagrees with its local header (${what}): the zip directory does not describe the data that is there. The file is corrupt or crafted and was not read.`);
  if (localName !== entry.name) throw differs(`the local header names it '${localName}'`);
  if (view.getUint16(8, true) !== entry.method) throw differs(`compression method ${view.getUint16(8, true)} there, ${entry.method} in the directory`);
  if (!(view.getUint16(6, true) & DATA_DESCRIPTOR)) {
    const extra = zip64LocalSizes(view, LOCAL_FIXED_BYTES + nameLength, extraLength);
    if (view.getUint32(14, true) !== entry.crc) throw differs('a different CRC-32');
    if (!sizeAgrees(view.getUint32(18, true), extra.compressed, entry.compressedSize)) throw differs('a different compressed size');
    if (!sizeAgrees(view.getUint32(22, true), extra.uncompressed, entry.uncompressedSize)) throw differs('a different uncompressed size');
  }
  const dataStart = entry.localHeaderOffset + LOCAL_FIXED_BYTES + nameLength + extraLength;
  if (dataStart + entry.compressedSize > entry.end) {
    throw bad(`runs past byte ${entry.end}, where the next member or the zip directory begins: the file is corrupt or crafted and was not read.`);
  }
  return dataStart;
}

/** how many bytes of a local header to read to see its name and extra field, given its fixed part */
export function localHeaderLength(fixed: Uint8Array): number {
  if (fixed.length < LOCAL_FIXED_BYTES) return fixed.length;
  const view = new DataView(fixed.buffer, fixed.byteOffset, fixed.byteLength);
  return LOCAL_FIXED_BYTES + view.getUint16(26, true) + view.getUint16(28, true);
}
