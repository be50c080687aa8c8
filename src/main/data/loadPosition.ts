/**
 * Position samples and the decoding time grid: shapes, finiteness and order (E010–E013, W014, E043, E050).
 * Nothing is dropped here; NaN positions stay for the engine to exclude.
 */
import type { ArrayReader, NumericArray } from './arrayReader';
import { count, num, pct, shapeText, type Findings } from './findings';
import { float32Resolution, scanNonFinite, scanOrder } from './scan';

export interface PositionSeries {
  time: Float64Array;
  values: Float64Array;
  dims: number;
}

/** E043: float32 times whose spacing at their largest value is coarser than a millisecond */
export function checkTimeResolution(f: Findings, a: NumericArray, electrode?: string): void {
  if (a.descr.slice(1) !== 'f4') return;
  const res = float32Resolution(a.data);
  if (res > 1e-3) {
    let maxAbs = 0;
    for (const v of a.data) if (Number.isFinite(v)) maxAbs = Math.max(maxAbs, Math.abs(v));
    f.error('E043', `'${a.key}' is float32 with values up to ${num(maxAbs)} s; float32 resolves only ~${num(res)} s there. Re-export times as float64.`,
      { key: a.key, electrode });
  }
}

/** A sample-time array: 1-D, finite, strictly increasing (E010, E013, E012). */
export function checkSampleTimes(f: Findings, a: NumericArray): boolean {
  const key = a.key;
  if (a.shape.length !== 1) {
    f.error('E010', `'${key}' must be 1-D (T,); got shape ${shapeText(a.shape)}.`, { key });
    return false;
  }
  let ok = true;
  const bad = scanNonFinite(a.data);
  if (bad.count > 0) {
    f.error('E013', `'${key}' contains ${count(bad.count)} NaN/Inf values (first at index ${count(bad.first)}: ${num(a.data[bad.first]!)}).`,
      { key, index: bad.first });
    ok = false;
  }
  const order = scanOrder(a.data);
  if (order.decreases > 0 || order.repeats > 0) {
    const parts: string[] = [];
    if (order.decreases > 0) {
      const i = order.firstDecrease;
      parts.push(`decreases ${count(order.decreases)} time${order.decreases === 1 ? '' : 's'} (first at index ${count(i)}: ${num(a.data[i - 1]!)} → ${num(a.data[i]!)} s)`);
    }
    if (order.repeats > 0) {
      const i = order.firstRepeat;
      parts.push(`repeats ${count(order.repeats)} value${order.repeats === 1 ? '' : 's'} (first at index ${count(i)}: ${num(a.data[i]!)} s)`);
    }
    const index = order.decreases > 0 ? order.firstDecrease : order.firstRepeat;
    f.error('E012', `'${key}' must be strictly increasing but ${parts.join(' and ')}.`,
      { key, index, fix: 'sort by time and drop duplicate samples' });
    ok = false;
  }
  checkTimeResolution(f, a);
  return ok;
}

/** Reads a (time, position) pair; a missing key is the caller's to report (E001 or optional). */
export async function readPositionSeries(
  r: ArrayReader, timeKey: string, posKey: string, f: Findings,
): Promise<PositionSeries | null> {
  const t = await r.numeric(timeKey);
  const p = await r.numeric(posKey);
  const timeOk = t ? checkSampleTimes(f, t) : false;
  if (!p) return null;
  let dims = 0;
  if (p.shape.length === 1) dims = 1;
  else if (p.shape.length === 2 && (p.shape[1] === 1 || p.shape[1] === 2)) dims = p.shape[1]!;
  if (dims === 0) {
    f.error('E011', `'${posKey}' must have shape (T,), (T, 1) or (T, 2); got ${shapeText(p.shape)}.`,
      { key: posKey, fix: p.shape.length === 2 ? 'use the first 2 columns' : undefined });
    return null;
  }
  const rows = p.shape[0]!;
  if (t && t.shape.length === 1 && rows !== t.shape[0]) {
    f.error('E010', `'${posKey}' has ${count(rows)} rows but '${timeKey}' has ${count(t.shape[0]!)} samples; they must be equal.`,
      { key: posKey });
    return null;
  }
  let nanRows = 0;
  let infCount = 0;
  let firstInf = -1;
  for (let i = 0; i < rows; i++) {
    let rowNan = false;
    for (let d = 0; d < dims; d++) {
      const v = p.data[i * dims + d]!;
      if (Number.isNaN(v)) rowNan = true;
      else if (!Number.isFinite(v)) {
        infCount++;
        if (firstInf < 0) firstInf = i;
      }
    }
    if (rowNan) nanRows++;
  }
  if (infCount > 0) {
    f.error('E013', `'${posKey}' contains ${count(infCount)} infinite values (first at row ${count(firstInf)}); mark missing samples with NaN instead.`,
      { key: posKey, index: firstInf });
    return null;
  }
  if (nanRows > 0) {
    f.warn('W014', `${count(nanRows)} '${posKey}' samples (${pct(nanRows, rows)}) are NaN; they will be treated as missing and excluded from encoding.`,
      { key: posKey });
  }
  if (!t || !timeOk) return null;
  return { time: t.data, values: p.data, dims };
}

/** A decoding grid: non-empty, 1-D, finite, strictly increasing (E050, E013, E043). */
export function checkTimeGrid(f: Findings, a: NumericArray): boolean {
  const key = a.key;
  if (a.shape.length !== 1 || a.shape[0] === 0) {
    f.error('E050', `'${key}' must be a non-empty 1-D array of decoding bin times; got shape ${shapeText(a.shape)}.`, { key });
    return false;
  }
  const bad = scanNonFinite(a.data);
  if (bad.count > 0) {
    f.error('E013', `'${key}' contains ${count(bad.count)} NaN/Inf values (first at index ${count(bad.first)}).`, { key, index: bad.first });
    return false;
  }
  for (let i = 1; i < a.data.length; i++) {
    const step = a.data[i]! - a.data[i - 1]!;
    if (!(step > 0)) {
      f.error('E050', `'${key}' must be strictly increasing; step ${num(step)} at index ${count(i)} (${num(a.data[i - 1]!)} → ${num(a.data[i]!)} s).`,
        { key, index: i });
      return false;
    }
  }
  checkTimeResolution(f, a);
  return true;
}

/** The decoding grid `time` (E050 when not strictly increasing or not finite). */
export async function readTimeGrid(r: ArrayReader, f: Findings): Promise<Float64Array | null> {
  const a = await r.numeric('time');
  if (!a) return null;
  return checkTimeGrid(f, a) ? a.data : null;
}
