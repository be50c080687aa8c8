/**
 * The per-electrode rules of data-format.md §6c (E021–E027, W028, W029, W031, W033, E043, W040), applied to
 * one electrode's spike times and marks. It reports; it never filters or reorders spikes.
 */
import type { NumericArray } from './arrayReader';
import { count, num, pct, shapeText, type ValidationFindings } from './validationFindings';
import { checkTimeUnits } from './timeChecks';
import { scanNonFinite, scanOrder } from './scan';

/** The most features an electrode may have (the engine's limit). */
export const MAX_FEATURES = 64;

export interface SpikeInput {
  /** electrode label used in messages */
  electrode: string;
  role: 'encoding' | 'decoding';
  times: NumericArray;
  features: NumericArray;
  /** a view of the file's data when one array holds every electrode (concatenated layout) */
  rowStart?: number;
  rowEnd?: number;
  featureNames?: string[];
  /** finite range of position_time, for W031 */
  positionRange?: [number, number] | null;
}

export interface CheckedSpikes {
  times: Float64Array;
  /** row-major (n × nFeatures) */
  features: Float64Array;
  /** null when the electrode is empty and its feature count cannot be told */
  nFeatures: number | null;
  ok: boolean;
}

function label(e: string): string {
  return `Electrode '${e}'`;
}

/** Checks the feature array's shape; returns the feature count, or undefined after an error. */
function featureCount(f: ValidationFindings, s: SpikeInput, nSpikes: number, totalRows: number): number | null | undefined {
  const { features: a, electrode } = s;
  const key = a.key;
  const where = { key, electrode };
  if (a.shape.length === 1 && totalRows === 0) return null;
  if (a.shape.length !== 2) {
    const extra = a.shape.length === 1 ? ' If there is one feature, reshape to (n, 1).' : '';
    f.error('E022', `${label(electrode)}: features '${key}' must be 2-D (n_spikes, n_features); got ${shapeText(a.shape)}.${extra}`, where);
    return undefined;
  }
  const rows = s.rowStart === undefined ? a.shape[0]! : totalRows;
  if (rows !== nSpikes) {
    f.error('E021', `${label(electrode)}: ${count(nSpikes)} ${s.role} spike times ('${s.times.key}') but the features '${key}' have ${count(rows)} rows.`, where);
    return undefined;
  }
  const nFeatures = a.shape[1]!;
  if (nFeatures === 0 || nFeatures > MAX_FEATURES) {
    const detail = nFeatures === 0 ? 'has 0 features' : `has ${nFeatures} features; the engine supports 1–${MAX_FEATURES}. Select a subset`;
    f.error('E023', `${label(electrode)} ('${key}') ${detail}.`, where);
    return undefined;
  }
  return nFeatures;
}

function checkTimes(f: ValidationFindings, s: SpikeInput, times: Float64Array): boolean {
  const key = s.times.key;
  const electrode = s.electrode;
  const offset = s.rowStart ?? 0;
  let ok = true;
  const bad = scanNonFinite(times);
  if (bad.count > 0) {
    const kind = bad.nanCount === bad.count ? 'NaN' : 'NaN/Inf';
    f.error('E026', `${label(electrode)}: ${count(bad.count)} ${s.role} spike times in '${key}' are ${kind} (first at index ${count(bad.first + offset)}).`,
      { key, electrode, index: bad.first + offset, fix: 'drop these spikes' });
    ok = false;
  }
  const order = scanOrder(times);
  if (order.decreases > 0) {
    const i = order.firstDecrease;
    f.error('E027', `${label(electrode)}: ${s.role} spike times in '${key}' are not sorted (${count(order.decreases)} inversion${order.decreases === 1 ? '' : 's'}; first at index ${count(i + offset)}: ${num(times[i - 1]!)} > ${num(times[i]!)} s).`,
      { key, electrode, index: i + offset, fix: 'sort spikes and features together' });
    ok = false;
  }
  if (order.repeats > 0) {
    const i = order.firstRepeat;
    f.warn('W028', `${label(electrode)}: ${count(order.repeats)} duplicate ${s.role} spike times in '${key}' (first at index ${count(i + offset)}: ${num(times[i]!)} s).`,
      { key, electrode, index: i + offset, fix: 'keep first' });
  }
  return ok;
}

function checkFeatureValues(f: ValidationFindings, s: SpikeInput, times: Float64Array, features: Float64Array, nFeatures: number): boolean {
  const key = s.features.key;
  const electrode = s.electrode;
  const offset = s.rowStart ?? 0;
  const n = times.length;
  let badSpikes = 0;
  let first = -1;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < nFeatures; j++) {
      if (!Number.isFinite(features[i * nFeatures + j]!)) {
        if (first < 0) first = i;
        badSpikes++;
        break;
      }
    }
  }
  if (badSpikes > 0) {
    f.error('E025', `${label(electrode)}: ${count(badSpikes)} ${s.role} spikes have NaN/Inf features in '${key}' (first: spike ${count(first + offset)} at t = ${num(times[first]!)} s).`,
      { key, electrode, index: first + offset, fix: 'drop these spikes' });
    return false;
  }
  if (n < 2) return true;
  for (let j = 0; j < nFeatures; j++) {
    const v0 = features[j]!;
    let constant = true;
    for (let i = 1; i < n && constant; i++) constant = features[i * nFeatures + j] === v0;
    if (constant) {
      const name = s.featureNames?.[j] !== undefined ? ` ('${s.featureNames[j]}')` : '';
      f.warn('W033', `${label(electrode)}, feature ${j}${name} of '${key}' is constant (all ${num(v0)}): probably a dead channel.`,
        { key, electrode, index: j, fix: 'drop feature' });
    }
  }
  return true;
}

function checkCoverage(f: ValidationFindings, s: SpikeInput, times: Float64Array): void {
  const range = s.positionRange;
  if (s.role !== 'encoding' || !range || times.length === 0) return;
  let outside = 0;
  for (const t of times) if (t < range[0] || t > range[1]) outside++;
  if (outside > 0) {
    f.warn('W031', `${label(s.electrode)}: ${count(outside)} of ${count(times.length)} spikes in '${s.times.key}' (${pct(outside, times.length)}) fall outside the position time range [${num(range[0])}, ${num(range[1])}] s and cannot be used for encoding.`,
      { key: s.times.key, electrode: s.electrode });
  }
}

export function checkSpikes(f: ValidationFindings, s: SpikeInput): CheckedSpikes {
  const failed: CheckedSpikes = { times: new Float64Array(0), features: new Float64Array(0), nFeatures: null, ok: false };
  if (s.times.shape.length !== 1) {
    f.error('E022', `${label(s.electrode)}: spike times '${s.times.key}' must be 1-D (n_spikes,); got ${shapeText(s.times.shape)}.`,
      { key: s.times.key, electrode: s.electrode });
    return failed;
  }
  const start = s.rowStart ?? 0;
  const times = s.rowEnd === undefined ? s.times.data : s.times.data.subarray(start, s.rowEnd);
  const totalRows = s.rowEnd === undefined ? s.features.shape[0] ?? 0 : times.length;
  const nFeatures = featureCount(f, s, times.length, totalRows);
  const timesOk = checkTimes(f, s, times);
  if (s.rowStart === undefined) checkTimeUnits(f, s.times, 'spikes', s.electrode);
  if (times.length === 0) {
    f.warn('W029', `${label(s.electrode)} has no ${s.role} spikes ('${s.times.key}'); it adds nothing to the ${s.role === 'encoding' ? 'fit' : 'decode'}.`,
      { key: s.times.key, electrode: s.electrode });
  }
  if (nFeatures === undefined) return failed;
  const width = nFeatures ?? 0;
  const features = s.rowEnd === undefined ? s.features.data : s.features.data.subarray(start * width, s.rowEnd * width);
  const valuesOk = width > 0 ? checkFeatureValues(f, s, times, features, width) : true;
  checkCoverage(f, s, times);
  return { times, features, nFeatures, ok: timesOk && valuesOk };
}
