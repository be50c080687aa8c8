/**
 * Writes .npy arrays (format 1.0, C order, little-endian) so that `numpy.load` reads them without
 * options: float32 likelihoods for the CLI, and float64 / string / byte members for exported .npz files.
 */
import { AppError } from '../../../shared/errors';

function shapeText(shape: readonly number[]): string {
  if (shape.length === 0) return '()';
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

/** The header of an .npy array; the data bytes follow it directly. */
export function npyHeader(descr: string, shape: readonly number[]): Uint8Array {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText(shape)}, }`;
  // The preamble (10 bytes) plus the header must be a multiple of 64, ending in a newline, as NumPy writes it.
  const unpadded = 10 + dict.length + 1;
  const headerLength = dict.length + 1 + ((64 - (unpadded % 64)) % 64);
  if (headerLength > 0xffff) throw new AppError('BAD_ARGUMENT', 'npy: shape too long for a version 1.0 header.');
  const out = new Uint8Array(10 + headerLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  new DataView(out.buffer).setUint16(8, headerLength, true);
  const header = dict.padEnd(headerLength - 1, ' ') + '\n';
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  return out;
}

function checkCount(shape: readonly number[], n: number, what: string): void {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== n) throw new AppError('BAD_ARGUMENT', `${what}: shape (${shape.join(', ')}) holds ${count} values but data has ${n}.`);
}

function withHeader(descr: string, shape: readonly number[], body: Uint8Array): Uint8Array {
  const head = npyHeader(descr, shape);
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** little-endian bytes of float values: a view on little-endian hosts, a swapped copy elsewhere */
function littleBytes(data: Float64Array | Float32Array): Uint8Array {
  if (HOST_LITTLE) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.byteLength);
  const view = new DataView(out.buffer);
  const size = data.BYTES_PER_ELEMENT;
  data.forEach((v, i) => (size === 8 ? view.setFloat64(i * 8, v, true) : view.setFloat32(i * 4, v, true)));
  return out;
}

export function float64Bytes(data: Float64Array): Uint8Array {
  return littleBytes(data);
}

export function float32Bytes(data: Float32Array): Uint8Array {
  return littleBytes(data);
}

export function encodeNpyFloat32(shape: readonly number[], data: Float32Array | Float64Array): Uint8Array {
  checkCount(shape, data.length, 'encodeNpyFloat32');
  const f32 = data instanceof Float32Array ? data : Float32Array.from(data);
  return withHeader('<f4', shape, littleBytes(f32));
}

export function encodeNpyFloat64(shape: readonly number[], data: Float64Array): Uint8Array {
  checkCount(shape, data.length, 'encodeNpyFloat64');
  return withHeader('<f8', shape, float64Bytes(data));
}

/** bytes as uint8 (e.g. UTF-8 JSON for `params`) */
export function encodeNpyBytes(data: Uint8Array): Uint8Array {
  return withHeader('|u1', [data.length], data);
}

/** strings as NumPy '<U' (UTF-32); a 0-d array when `scalar` */
export function encodeNpyStrings(values: string[], scalar = false): Uint8Array {
  const cps = values.map((s) => Array.from(s, (c) => c.codePointAt(0)!));
  const width = Math.max(1, ...cps.map((c) => c.length));
  const body = new Uint8Array(values.length * width * 4);
  const view = new DataView(body.buffer);
  cps.forEach((c, i) => c.forEach((cp, j) => view.setUint32((i * width + j) * 4, cp, true)));
  return withHeader(`<U${width}`, scalar ? [] : [values.length], body);
}
