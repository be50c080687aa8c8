/**
 * Writes float32 .npy files (format 1.0, C order, little-endian): the form the CLI saves likelihoods in,
 * so that `numpy.load` reads them without options.
 */
import { AppError } from '../../shared/errors';

function shapeText(shape: readonly number[]): string {
  if (shape.length === 0) return '()';
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

export function encodeNpyFloat32(shape: readonly number[], data: Float32Array | Float64Array): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) {
    throw new AppError('BAD_ARGUMENT', `encodeNpyFloat32: shape (${shape.join(', ')}) holds ${count} values but data has ${data.length}.`);
  }
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeText(shape)}, }`;
  // The preamble (10 bytes) plus the header must be a multiple of 64, ending in a newline, as NumPy writes it.
  const unpadded = 10 + dict.length + 1;
  const headerLength = dict.length + 1 + ((64 - (unpadded % 64)) % 64);
  if (headerLength > 0xffff) throw new AppError('BAD_ARGUMENT', 'encodeNpyFloat32: shape too long for a version 1.0 header.');
  const header = dict.padEnd(headerLength - 1, ' ') + '\n';
  const out = new Uint8Array(10 + headerLength + count * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  const view = new DataView(out.buffer);
  view.setUint16(8, headerLength, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const base = 10 + headerLength;
  for (let i = 0; i < count; i++) view.setFloat32(base + i * 4, data[i]!, true);
  return out;
}
