/**
 * Position samples and the decoding time grid: shapes, finiteness and order (E010–E013, W014, E043, E050).
 * Nothing is dropped here; NaN positions stay for the engine to exclude.
 */
import {
  checkGaps, checkJumps, checkTimeUnits, count, num, pct, scanNonFinite, scanOrder, shapeText, type ArrayReader, type NumericArray,
  type ValidationFindings,
} from '../validation';

export interface PositionSeries {
  time: Float64Array;
  values: Float64Array;
  dims: number;
}

/** W070 and W071 on a valid series */
export function checkTrajectory(f: ValidationFindings, timeKey: string, posKey: string, s: PositionSeries, unit?: string): void {
  checkJumps(f, posKey, s.time, s.values, s.dims, unit);
  checkGaps(f, timeKey, s.time);
}

/** A sample-time array: 1-D, finite, strictly increasing (E010, E013, E012). */
export function checkSampleTimes(f: ValidationFindings, a: NumericArray): boolean {
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
  checkTimeUnits(f, a, 'position');
  return ok;
}

/** Reads a (time, position) pair; a missing key is the caller's to report (E001 or optional). */
export async function readPositionSeries(
  r: ArrayReader, timeKey: string, posKey: string, f: ValidationFindings, unit?: string,
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
  if (!checkPositionValues(f, posKey, p.data, dims)) return null;
  if (!t || !timeOk) return null;
  checkTrajectory(f, timeKey, posKey, { time: t.data, values: p.data, dims }, unit);
  return { time: t.data, values: p.data, dims };
}

/** A decoding grid: non-empty, 1-D, finite, strictly increasing (E050, E013, E043). */
export function checkTimeGrid(f: ValidationFindings, a: NumericArray): boolean {
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
  checkTimeUnits(f, a, 'bins');
  return true;
}

/** E013 for infinite position values (NaN marks a missing sample), W014 for NaN rows; false on E013. */
export function checkPositionValues(f: ValidationFindings, key: string, values: Float64Array, dims: number): boolean {
  const rows = values.length / dims;
  let nanRows = 0;
  let firstInf = -1;
  let infCount = 0;
  for (let i = 0; i < rows; i++) {
    let rowNan = false;
    for (let d = 0; d < dims; d++) {
      const v = values[i * dims + d]!;
      if (Number.isNaN(v)) rowNan = true;
      else if (!Number.isFinite(v)) {
        infCount++;
        if (firstInf < 0) firstInf = i;
      }
    }
    if (rowNan) nanRows++;
  }
  if (infCount > 0) {
    f.error('E013', `'${key}' contains ${count(infCount)} infinite values (first at row ${count(firstInf)}); mark missing samples with NaN instead.`, { key, index: firstInf });
    return false;
  }
  if (nanRows > 0) {
    f.warn('W014', `${count(nanRows)} '${key}' samples (${pct(nanRows, rows)}) are NaN; they will be treated as missing and excluded from encoding.`, { key });
  }
  return true;
}
