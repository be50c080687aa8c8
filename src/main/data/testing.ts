/**
 * Test helpers: writes .npy bytes in any dtype, order, endianness and format version, and zips them
 * (stored, deflated, or with zip64 records as NumPy writes them); makes named pipes. Used by the
 * rooms' tests, the service's tests of paths a client names and the fault tests.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { unzipSync, zipSync } from 'fflate';
import { crc32, parseNpy } from './npz';

/** the zip checksum, for a test that writes a zip by hand */
export { crc32 };

export interface NpySpec {
  descr: string;
  shape: number[];
  /** C-order values */
  values: ArrayLike<number | bigint | boolean | string>;
  fortran?: boolean;
  version?: 1 | 2 | 3;
  /** header text override (for malformed-header tests) */
  header?: string;
}

function writeInteger(view: DataView, at: number, size: number, signed: boolean, v: number | bigint | boolean | string, little: boolean): void {
  const n = Number(v);
  if (size === 1) {
    if (signed) view.setInt8(at, n);
    else view.setUint8(at, n);
  } else if (size === 2) {
    if (signed) view.setInt16(at, n, little);
    else view.setUint16(at, n, little);
  } else if (size === 4) {
    if (signed) view.setInt32(at, n, little);
    else view.setUint32(at, n, little);
  } else {
    const big = BigInt(v as number);
    if (signed) view.setBigInt64(at, big, little);
    else view.setBigUint64(at, big, little);
  }
}

function writeItem(view: DataView, bytes: Uint8Array, at: number, descr: string, v: number | bigint | boolean | string): void {
  const little = descr[0] !== '>';
  const kind = descr[1]!;
  const size = Number(descr.slice(2));
  if (kind === 'U') {
    const cps = Array.from(String(v), (c) => c.codePointAt(0)!);
    for (let i = 0; i < size; i++) view.setUint32(at + i * 4, cps[i] ?? 0, little);
  } else if (kind === 'S') {
    const s = String(v);
    for (let i = 0; i < size; i++) bytes[at + i] = i < s.length ? s.charCodeAt(i) : 0;
  } else if (kind === 'b') {
    view.setUint8(at, v ? 1 : 0);
  } else if (kind === 'f') {
    if (size === 8) view.setFloat64(at, Number(v), little);
    else view.setFloat32(at, Number(v), little);
  } else if (kind === 'i' || kind === 'u') {
    writeInteger(view, at, size, kind === 'i', v, little);
  } else {
    throw new Error(`testing: cannot write dtype ${descr}`);
  }
}

function itemSize(descr: string): number {
  const kind = descr[1]!;
  const n = Number(descr.slice(2));
  return kind === 'U' ? 4 * n : n;
}

/** C-order index → position in Fortran layout */
function fortranOrder(shape: number[]): number[] {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Array<number>(n);
  for (let c = 0; c < n; c++) {
    let rest = c;
    let f = 0;
    let stride = 1;
    const idx: number[] = [];
    for (let k = shape.length - 1; k >= 0; k--) {
      idx[k] = rest % shape[k]!;
      rest = Math.floor(rest / shape[k]!);
    }
    for (let k = 0; k < shape.length; k++) {
      f += idx[k]! * stride;
      stride *= shape[k]!;
    }
    out[c] = f;
  }
  return out;
}

export function makeNpy(spec: NpySpec): Uint8Array {
  const version = spec.version ?? 1;
  const shape = spec.shape.length === 0 ? '()' : spec.shape.length === 1 ? `(${spec.shape[0]},)` : `(${spec.shape.join(', ')})`;
  const dict = spec.header ?? `{'descr': '${spec.descr}', 'fortran_order': ${spec.fortran ? 'True' : 'False'}, 'shape': ${shape}, }`;
  const pre = version === 1 ? 10 : 12;
  const headerBytes = new TextEncoder().encode(dict);
  const padded = headerBytes.length + 1 + ((64 - ((pre + headerBytes.length + 1) % 64)) % 64);
  const size = spec.header ? 8 : itemSize(spec.descr);
  const n = spec.values.length;
  const out = new Uint8Array(pre + padded + n * size);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, padded, true);
  else view.setUint32(8, padded, true);
  out.fill(0x20, pre, pre + padded - 1);
  out.set(headerBytes, pre);
  out[pre + padded - 1] = 0x0a;
  const where = spec.fortran ? fortranOrder(spec.shape) : null;
  for (let c = 0; c < n; c++) {
    const slot = where ? where[c]! : c;
    if (!spec.header) writeItem(view, out, pre + padded + slot * size, spec.descr, spec.values[c]!);
  }
  return out;
}

export const f8 = (values: ArrayLike<number>, shape: number[] = [values.length]): Uint8Array =>
  makeNpy({ descr: '<f8', shape, values });

export const bytesJson = (obj: unknown): Uint8Array => {
  const b = new TextEncoder().encode(JSON.stringify(obj));
  return makeNpy({ descr: '|u1', shape: [b.length], values: b });
};

export const strings = (values: string[]): Uint8Array => {
  const width = Math.max(1, ...values.map((s) => s.length));
  return makeNpy({ descr: `<U${width}`, shape: [values.length], values });
};

/** A .npz built with fflate: level 0 stores members, level > 0 deflates them. */
export function makeNpz(members: Record<string, Uint8Array>, level: 0 | 6 = 0): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [k, v] of Object.entries(members)) files[`${k}.npy`] = [v, { level }];
  return zipSync(files);
}

/**
 * A stored zip whose every size and offset lives in zip64 extra fields (0xFFFFFFFF in the 32-bit
 * slots, local sizes as placeholders), closed by a zip64 end record and locator: the hard case of
 * what NumPy's zipfile writes.
 */
export function makeZip64Npz(members: Record<string, Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const enc = new TextEncoder();
  for (const [k, data] of Object.entries(members)) {
    const name = enc.encode(`${k}.npy`);
    const crc = crc32(data);
    const local = new Uint8Array(30 + name.length + 20);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 45, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, 0xffffffff, true);
    lv.setUint32(22, 0xffffffff, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, 20, true);
    local.set(name, 30);
    lv.setUint16(30 + name.length, 1, true);
    lv.setUint16(32 + name.length, 16, true);
    // placeholder sizes (0), as a streaming writer leaves them
    const cen = new Uint8Array(46 + name.length + 28);
    const cv = new DataView(cen.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 45, true);
    cv.setUint16(6, 45, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, 0xffffffff, true);
    cv.setUint32(24, 0xffffffff, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, 28, true);
    cv.setUint32(42, 0xffffffff, true);
    cen.set(name, 46);
    const x = 46 + name.length;
    cv.setUint16(x, 1, true);
    cv.setUint16(x + 2, 24, true);
    cv.setBigUint64(x + 4, BigInt(data.length), true);
    cv.setBigUint64(x + 12, BigInt(data.length), true);
    cv.setBigUint64(x + 20, BigInt(offset), true);
    parts.push(local, data);
    central.push(cen);
    offset += local.length + data.length;
  }
  const cdSize = central.reduce((s, c) => s + c.length, 0);
  const cdOffset = offset;
  const n = central.length;
  const end = new Uint8Array(56 + 20 + 22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06064b50, true);
  ev.setBigUint64(4, 44n, true);
  ev.setUint16(12, 45, true);
  ev.setUint16(14, 45, true);
  ev.setBigUint64(24, BigInt(n), true);
  ev.setBigUint64(32, BigInt(n), true);
  ev.setBigUint64(40, BigInt(cdSize), true);
  ev.setBigUint64(48, BigInt(cdOffset), true);
  ev.setUint32(56, 0x07064b50, true);
  ev.setBigUint64(64, BigInt(cdOffset + cdSize), true);
  ev.setUint32(72, 1, true);
  ev.setUint32(76, 0x06054b50, true);
  ev.setUint16(86, 0xffff, true);
  ev.setUint16(88, 0xffff, true);
  ev.setUint32(90, 0xffffffff, true);
  ev.setUint32(94, 0xffffffff, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
  let p = 0;
  for (const a of all) {
    out.set(a, p);
    p += a.length;
  }
  return out;
}

/** The members of a .npz, keyed without the .npy suffix (for building mutated copies). */
export function unzipMembers(bytes: Uint8Array): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(unzipSync(bytes))) out[k.replace(/\.npy$/, '')] = v;
  return out;
}

/** A member's numbers and shape, as float64 in C order. */
export function numbersOf(members: Record<string, Uint8Array>, key: string): { data: Float64Array; shape: number[] } {
  const bytes = members[key];
  if (!bytes) throw new Error(`testing: no member ${key}`);
  const a = parseNpy(bytes);
  return { data: Float64Array.from(a.data as ArrayLike<number>), shape: a.shape };
}

/** Makes a named pipe with the system's mkfifo; false where there is none (Windows, a bare container). */
export function makeFifo(path: string): boolean {
  try {
    execFileSync('mkfifo', [path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens the pipe for writing without waiting, and closes it: a reader stuck opening it (the bug
 * the tests guard against) is let go, so a failing test cannot leave a thread blocked for good.
 */
export function releaseFifo(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader is waiting, which is what a passing test leaves
  }
}
