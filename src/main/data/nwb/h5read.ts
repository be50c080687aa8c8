/**
 * Typed reads from an open HDF5 file: attributes as text or numbers, dataset metadata without data,
 * and numeric rows as float64 read in bounded slices (h5wasm's heap is capped at 2 GiB, and
 * 64-bit integers arrive as BigInt).
 */
import type { Dataset as H5Dataset, OutputData } from 'h5wasm/node';
import { AppError } from '../../../shared/errors';
import { shapeText } from '../validation';
import { guard, type H5Entity, type H5Handle } from './h5';

/** one slice of a dataset never asks h5wasm for more than this */
export const MAX_SLICE_BYTES = 64 * 1024 * 1024;

export interface DatasetMeta {
  path: string;
  shape: number[];
  /** 'f8', 'f4', 'i8', 'u2', … for numbers; 'str', 'ref', 'bool' or 'other' */
  dtype: string;
  numeric: boolean;
  itemBytes: number;
}

export function datasetMeta(h: H5Handle, ds: H5Dataset): DatasetMeta {
  return guard(h.file, ds.path, () => {
    const m = ds.metadata;
    const shape = (m.shape ?? []).map(Number);
    let dtype = 'other';
    if (m.type === 0) dtype = `${m.signed ? 'i' : 'u'}${m.size}`;
    else if (m.type === 1) dtype = `f${m.size}`;
    else if (m.type === 3) dtype = 'str';
    else if (m.type === 7) dtype = 'ref';
    else if (m.type === 8) dtype = 'bool';
    return { path: ds.path, shape, dtype, numeric: m.type === 0 || m.type === 1, itemBytes: m.size };
  });
}

function attrValue(h: H5Handle, obj: H5Entity, name: string): unknown {
  return guard(h.file, `${obj.path}@${name}`, () => {
    const attrs = obj.attrs;
    return name in attrs ? attrs[name]!.value : undefined;
  });
}

export function attrText(h: H5Handle, obj: H5Entity, name: string): string | undefined {
  const v = attrValue(h, obj, name);
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

export function attrNumber(h: H5Handle, obj: H5Entity, name: string): number | undefined {
  const v = attrValue(h, obj, name);
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (ArrayBuffer.isView(v) && (v as unknown as ArrayLike<number | bigint>).length > 0) return Number((v as unknown as ArrayLike<number | bigint>)[0]);
  return undefined;
}

/** Any numeric typed array (BigInt ones included) as float64. */
function toFloat64(v: unknown): Float64Array {
  if (v instanceof Float64Array) return v;
  if (typeof v === 'number') return Float64Array.of(v);
  if (typeof v === 'bigint') return Float64Array.of(Number(v));
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
    const out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = Number(v[i]!);
    return out;
  }
  if (ArrayBuffer.isView(v)) return Float64Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v) && v.every((x) => typeof x === 'number' || typeof x === 'bigint')) return Float64Array.from(v, Number);
  throw new TypeError('not a numeric array');
}

function requireNumeric(h: H5Handle, meta: DatasetMeta): void {
  if (!meta.numeric) {
    throw new AppError('E061', `${h.file}: '${meta.path}' has dtype ${meta.dtype} with shape ${shapeText(meta.shape)}; expected numbers (float or integer).`,
      { file: h.file, key: meta.path });
  }
}

/**
 * Rows [start, end) of a numeric dataset (all rows by default), C order, as float64. Extra leading
 * selections (`lead`) pick fixed indices of leading axes first, e.g. [0] for spyglass's (1, N, C).
 */
export function readRows(h: H5Handle, ds: H5Dataset, start?: number, end?: number, lead: number[] = []): Float64Array {
  const meta = datasetMeta(h, ds);
  requireNumeric(h, meta);
  const shape = meta.shape;
  if (shape.length === 0) return guard(h.file, meta.path, () => toFloat64(ds.value));
  const axis = lead.length;
  const n = shape[axis] ?? 0;
  const a = start ?? 0;
  const b = end ?? n;
  if (a < 0 || b > n || a > b) {
    throw new AppError('E065', `${h.file}: rows ${a}..${b} of '${meta.path}' lie outside its ${n} rows ${shapeText(shape)}; an index column points past the data.`,
      { file: h.file, key: meta.path });
  }
  const rowItems = shape.slice(axis + 1).reduce((x, y) => x * y, 1);
  const out = new Float64Array((b - a) * rowItems);
  const rowBytes = Math.max(1, rowItems * meta.itemBytes);
  const step = Math.max(1, Math.floor(MAX_SLICE_BYTES / rowBytes));
  for (let r = a; r < b; r += step) {
    const stop = Math.min(b, r + step);
    const ranges = [...lead.map((i) => [i, i + 1] as [number, number]), [r, stop] as [number, number], ...shape.slice(axis + 1).map(() => [] as [])];
    const part = guard(h.file, meta.path, () => toFloat64(ds.slice(ranges)));
    out.set(part, (r - a) * rowItems);
  }
  return out;
}

/** a short numeric dataset read whole (index columns, ids, intervals) */
export function readSmall(h: H5Handle, ds: H5Dataset): Float64Array {
  return readRows(h, ds);
}

/** One element of a text dataset; a reference or a nested array is not text. */
function textOf(x: OutputData): string {
  return typeof x === 'string' || typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean' ? String(x) : '';
}

export function readText(h: H5Handle, ds: H5Dataset): string[] {
  return guard(h.file, ds.path, () => {
    const v = ds.value;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.map(textOf);
    return [];
  });
}
