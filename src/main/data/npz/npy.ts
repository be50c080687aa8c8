/**
 * Reads NumPy .npy buffers (format versions 1–3) into host arrays in C order and native byte order.
 * Object arrays are refused (they need pickle); complex, structured and other exotic dtypes are refused.
 */
import { totalmem } from 'node:os';
import { AppError } from '../../../shared/errors';

export type NpyKind = 'float' | 'int' | 'uint' | 'bool' | 'unicode' | 'bytes';

export interface NpyDtype {
  /** the descr string as written in the header, e.g. '<f8' */
  descr: string;
  kind: NpyKind;
  itemBytes: number;
}

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  /** Float64Array for numbers, string[] for strings, Uint8Array for bool and u1 (raw bytes) */
  data: Float64Array | string[] | Uint8Array;
  fortranOrder: boolean;
  bigEndian: boolean;
}

/** Where a parse failure happened, so that the message can name the file and key. */
export interface NpyContext {
  file?: string;
  key?: string;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function fail(code: 'E060' | 'E061' | 'E090', ctx: NpyContext, what: string): never {
  const prefix = ctx.file ? `${ctx.file}: ` : '';
  const subject = ctx.key ? `'${ctx.key}'` : 'array';
  throw new AppError(code, `${prefix}${subject} ${what}`, { file: ctx.file, key: ctx.key });
}

interface Header {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  dataOffset: number;
}

function readHeader(bytes: Uint8Array, ctx: NpyContext): Header {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) {
    fail('E090', ctx, 'is not a NumPy .npy array (bad magic bytes); re-save it with numpy.save or numpy.savez.');
  }
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLength: number;
  let start: number;
  if (major === 1) {
    headerLength = view.getUint16(8, true);
    start = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) fail('E090', ctx, 'has a truncated .npy header.');
    headerLength = view.getUint32(8, true);
    start = 12;
  } else {
    fail('E090', ctx, `uses .npy format version ${major}, which is not supported (1, 2 and 3 are).`);
  }
  if (start + headerLength > bytes.length) fail('E090', ctx, 'has a truncated .npy header.');
  const headerBytes = bytes.subarray(start, start + headerLength);
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(headerBytes);
  return { ...parseHeaderDict(text, ctx), dataOffset: start + headerLength };
}

function parseHeaderDict(text: string, ctx: NpyContext): Omit<Header, 'dataOffset'> {
  const descrMatch = /['"]descr['"]\s*:\s*(['"])([^'"]*)\1/.exec(text);
  if (!descrMatch) {
    if (/['"]descr['"]\s*:\s*\[/.test(text)) {
      fail('E061', ctx, 'has a structured (record) dtype; expected a plain numeric, bool or string array.');
    }
    fail('E090', ctx, `has an unreadable .npy header (${JSON.stringify(text.slice(0, 80))}).`);
  }
  const fortranMatch = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(text);
  const shapeMatch = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(text);
  if (!fortranMatch || !shapeMatch) {
    fail('E090', ctx, `has an unreadable .npy header (${JSON.stringify(text.slice(0, 80))}).`);
  }
  const shape = shapeMatch[1]!
    .split(',')
    .map((s) => s.trim().replace(/L$/, ''))
    .filter((s) => s.length > 0)
    .map((s) => {
      const n = Number(s);
      if (!Number.isSafeInteger(n) || n < 0) fail('E090', ctx, `has an invalid shape entry '${s}' in its .npy header.`);
      return n;
    });
  return { descr: descrMatch[2]!, fortranOrder: fortranMatch[1] === 'True', shape };
}

function parseDtype(descr: string, ctx: NpyContext): { dtype: NpyDtype; bigEndian: boolean } {
  const m = /^([<>|=]?)([a-zA-Z])(\d*)(.*)$/.exec(descr);
  if (!m) fail('E061', ctx, `has dtype '${descr}', which is not supported; expected float32/float64.`);
  const [, order, kindChar, sizeText, rest] = m;
  if (kindChar === 'O') {
    fail('E060', ctx, 'is a NumPy object array (dtype=object), which needs Python pickle and is not read for safety. ' +
      'Save one array per electrode (spike_times_0, …) or use spike_times + spike_times_index.');
  }
  const size = Number(sizeText);
  const bigEndian = order === '>';
  const ok = (kind: NpyKind, itemBytes: number) => ({ dtype: { descr, kind, itemBytes }, bigEndian });
  if (rest === '') {
    if (kindChar === 'f' && (size === 4 || size === 8)) return ok('float', size);
    if (kindChar === 'i' && [1, 2, 4, 8].includes(size)) return ok('int', size);
    if (kindChar === 'u' && [1, 2, 4, 8].includes(size)) return ok('uint', size);
    if (kindChar === 'b' && size === 1) return ok('bool', 1);
    if (kindChar === 'U' && size >= 0) return ok('unicode', size * 4);
    if (kindChar === 'S' && size >= 0) return ok('bytes', size);
  }
  const name = kindChar === 'c' ? `complex${size * 8}` : descr;
  fail('E061', ctx, `has dtype ${name}; expected float32/float64.`);
}

function readNumbers(bytes: Uint8Array, offset: number, count: number, dtype: NpyDtype, bigEndian: boolean): Float64Array {
  const little = !bigEndian;
  const size = dtype.itemBytes;
  // A buffer that is this member alone (as a file read gives it) is viewed in place when aligned, so a
  // large float64 member is not held twice; anything else is copied to an aligned buffer of its own.
  const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && offset % 8 === 0;
  if (own && little && dtype.kind === 'float' && size === 8 && HOST_LITTLE) return new Float64Array(bytes.buffer, offset, count);
  // Uint8Array's slice, not Buffer's: a Node Buffer's slice is a view, whose .buffer would start
  // at the pool's or file's beginning rather than at this member's data
  const raw = Uint8Array.prototype.slice.call(bytes, offset, offset + count * size);
  if (little && dtype.kind === 'float' && size === 8) return new Float64Array(raw.buffer);
  const out = new Float64Array(count);
  if (little) {
    const buf = raw.buffer;
    const src =
      dtype.kind === 'float' ? (size === 8 ? new Float64Array(buf) : new Float32Array(buf))
      : dtype.kind === 'int' ? (size === 1 ? new Int8Array(buf) : size === 2 ? new Int16Array(buf) : size === 4 ? new Int32Array(buf) : new BigInt64Array(buf))
      : size === 1 ? new Uint8Array(buf) : size === 2 ? new Uint16Array(buf) : size === 4 ? new Uint32Array(buf) : new BigUint64Array(buf);
    // a typed array's set converts every element natively; BigInt arrays it refuses, so they go one by one
    if (src instanceof BigInt64Array || src instanceof BigUint64Array) for (let i = 0; i < count; i++) out[i] = Number(src[i]!);
    else out.set(src);
    return out;
  }
  const view = new DataView(raw.buffer);
  for (let i = 0, o = 0; i < count; i++, o += size) {
    if (dtype.kind === 'float') out[i] = size === 8 ? view.getFloat64(o, little) : view.getFloat32(o, little);
    else if (dtype.kind === 'int') {
      out[i] = size === 1 ? view.getInt8(o) : size === 2 ? view.getInt16(o, little) : size === 4 ? view.getInt32(o, little) : Number(view.getBigInt64(o, little));
    } else {
      out[i] = size === 1 ? view.getUint8(o) : size === 2 ? view.getUint16(o, little) : size === 4 ? view.getUint32(o, little) : Number(view.getBigUint64(o, little));
    }
  }
  return out;
}

function readStrings(bytes: Uint8Array, offset: number, count: number, dtype: NpyDtype, bigEndian: boolean): string[] {
  const out: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = dtype.itemBytes;
  for (let i = 0; i < count; i++) {
    const base = offset + i * size;
    let s = '';
    if (dtype.kind === 'unicode') {
      for (let c = 0; c < size / 4; c++) {
        const cp = view.getUint32(base + c * 4, !bigEndian);
        if (cp === 0) break;
        s += String.fromCodePoint(cp);
      }
    } else {
      let end = base;
      while (end < base + size && bytes[end] !== 0) end++;
      s = new TextDecoder('latin1').decode(bytes.subarray(base, end));
    }
    out.push(s);
  }
  return out;
}

/** Reorders a Fortran-order flat array into C order for the given shape. */
function fortranToC<T extends { length: number; [i: number]: unknown }>(src: T, shape: number[], make: (n: number) => T): T {
  const n = src.length;
  const out = make(n);
  const nd = shape.length;
  if (nd < 2 || n === 0) {
    for (let i = 0; i < n; i++) out[i] = src[i];
    return out;
  }
  const fStride = new Array<number>(nd);
  fStride[0] = 1;
  for (let k = 1; k < nd; k++) fStride[k] = fStride[k - 1]! * shape[k - 1]!;
  const idx = new Array<number>(nd).fill(0);
  let f = 0;
  for (let c = 0; c < n; c++) {
    out[c] = src[f];
    // Advance the C-order multi-index (last axis fastest) and keep the Fortran offset in step.
    for (let k = nd - 1; k >= 0; k--) {
      idx[k]!++;
      f += fStride[k]!;
      if (idx[k]! < shape[k]!) break;
      f -= fStride[k]! * shape[k]!;
      idx[k] = 0;
    }
  }
  return out;
}

export interface NpyHeader {
  dtype: NpyDtype;
  bigEndian: boolean;
  shape: number[];
  fortranOrder: boolean;
  /** where the data starts in the member */
  dataOffset: number;
}

/** The header alone, from the first bytes of a member (for reading its data in a stream). */
export function parseNpyHeader(bytes: Uint8Array, ctx: NpyContext = {}): NpyHeader {
  const header = readHeader(bytes, ctx);
  const { dtype, bigEndian } = parseDtype(header.descr, ctx);
  return { dtype, bigEndian, shape: header.shape, fortranOrder: header.fortranOrder, dataOffset: header.dataOffset };
}

/** the most strings a string array may hold (electrode names, labels), the longest one, and their total size */
/**
 * The most elements one numeric array may declare: read as float64, it may take at most half the
 * machine's memory (and no more than 8 GiB, past which a typed array cannot be made). A file that
 * is valid but larger than this would take the process down while loading; it is refused instead.
 */
export const MAX_NPY_ELEMENTS = Math.floor(Math.min(totalmem() / 2, 8 * 2 ** 30) / 8);
export const MAX_NPY_STRINGS = 1_000_000;
export const MAX_NPY_STRING_CHARS = 4096;
export const MAX_NPY_STRING_BYTES = 64 * 2 ** 20;

function checkStrings(dtype: NpyDtype, count: number, ctx: NpyContext): void {
  const chars = dtype.kind === 'unicode' ? dtype.itemBytes / 4 : dtype.itemBytes;
  if (count > MAX_NPY_STRINGS || chars > MAX_NPY_STRING_CHARS) {
    fail('E090', ctx, `is a string array of ${count} items of up to ${chars} characters, more than the ${MAX_NPY_STRINGS} items of ${MAX_NPY_STRING_CHARS} characters a data file may hold.`);
  }
  // Each item is turned into a JavaScript string, so the total is what costs memory and time.
  if (count * dtype.itemBytes > MAX_NPY_STRING_BYTES) {
    fail('E090', ctx, `is a string array of ${count} items of ${dtype.descr} (${count * dtype.itemBytes} bytes), more than the ${MAX_NPY_STRING_BYTES} bytes of strings a data file may hold; names and labels need far less — store them as shorter strings or drop the array.`);
  }
}

/**
 * Checks what a header declares against the bytes that hold it (`available`: the member's or
 * file's size) and the caps on string arrays, before anything is allocated for the data. With
 * `exact`, the bytes must be exactly header + shape × item size, as NumPy writes them: a member
 * declared larger than its array would be inflated for nothing.
 */
export function checkNpyHeader(header: NpyHeader, available: number, ctx: NpyContext = {}, exact = false): number {
  const { dtype, shape } = header;
  const count = shape.reduce((a, b) => a * b, 1);
  if (dtype.kind === 'unicode' || dtype.kind === 'bytes') checkStrings(dtype, count, ctx);
  const needed = count * dtype.itemBytes;
  if (header.dataOffset + needed > available) {
    fail('E090', ctx, `is truncated: shape (${shape.join(', ')}) needs ${needed} data bytes but only ${Math.max(0, available - header.dataOffset)} are present.`);
  }
  // a file that does hold that much is valid, and still more than loading it can survive
  if (count > MAX_NPY_ELEMENTS) {
    fail('E090', ctx, `declares shape (${shape.join(', ')}): ${count} values, more than the ${MAX_NPY_ELEMENTS} this machine's memory holds as float64 (half of it). ` +
      'Split the recording into shorter files, or run on a machine with more memory.');
  }
  if (exact && header.dataOffset + needed !== available) {
    fail('E090', ctx, `holds ${available} bytes but its header (${dtype.descr}, shape (${shape.join(', ')})) declares ${header.dataOffset + needed}: the member carries bytes its array does not, so it was not inflated. The file is corrupt or crafted; re-save it with numpy.savez.`);
  }
  return count;
}

/** Parses one .npy buffer; throws AppError E060 (object), E061 (dtype) or E090 (unreadable). */
export function parseNpy(bytes: Uint8Array, ctx: NpyContext = {}, exact = false): NpyArray {
  const header = parseNpyHeader(bytes, ctx);
  const { dtype, bigEndian } = header;
  const count = checkNpyHeader(header, bytes.length, ctx, exact);
  let data: Float64Array | string[] | Uint8Array;
  if (dtype.kind === 'unicode' || dtype.kind === 'bytes') {
    data = readStrings(bytes, header.dataOffset, count, dtype, bigEndian);
    if (header.fortranOrder) data = fortranToC(data, header.shape, (n) => new Array<string>(n));
  } else if (dtype.kind === 'bool' || (dtype.kind === 'uint' && dtype.itemBytes === 1)) {
    data = Uint8Array.prototype.slice.call(bytes, header.dataOffset, header.dataOffset + count);
    if (header.fortranOrder) data = fortranToC(data, header.shape, (n) => new Uint8Array(n));
  } else {
    data = readNumbers(bytes, header.dataOffset, count, dtype, bigEndian);
    if (header.fortranOrder) data = fortranToC(data, header.shape, (n) => new Float64Array(n));
  }
  return { dtype, shape: header.shape, data, fortranOrder: header.fortranOrder, bigEndian };
}

/** The numbers of a numeric or bool array as float64; null for string arrays. */
export function npyAsFloat64(a: NpyArray): Float64Array | null {
  if (a.data instanceof Float64Array) return a.data;
  if (a.data instanceof Uint8Array) return Float64Array.from(a.data);
  return null;
}
