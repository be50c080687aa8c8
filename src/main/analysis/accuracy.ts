/**
 * Decoding accuracy next to speed: where the data carry the animal's true position at the decoding
 * rows, how far each row's most likely bin lies from it. A strategy that is fast but decodes the
 * animal somewhere else is not a faster way to the same answer, so strategies that should agree
 * and decode differently are a finding.
 */
import type { Dataset } from '../../shared/dataset';
import { BugError } from '../../shared/errors';
import { formatShare } from '../../shared/format';
import type { DecodingAccuracy, Finding, StrategyResult } from '../../shared/report';
import { upperBound } from '../../shared/sortedSearch';
import { agreementOf, strategyLabel } from './results';
import { median } from './stats';

/** Rows decoded within this distance of the true position count as right (position units). */
export const ACCURACY_RADIUS = 10;
/** Median errors further apart than this many bins mean two strategies decode differently. */
export const ACCURACY_MEDIAN_TOLERANCE_BINS = 2;
/** …and shares within the radius further apart than this. */
export const ACCURACY_SHARE_TOLERANCE = 0.05;

type Values = Float64Array | Float32Array;

export type TruePositionSource = Pick<
  Dataset, 'time' | 'positionTime' | 'position' | 'positionDims' | 'decodingPositionTime' | 'decodingPosition'
>;

/**
 * The true position at each decoding row time (nTime × positionDims, row-major): the decoding
 * position where the data give one, else the encoding track, linearly interpolated between the
 * samples around the row. NaN outside the samples (no extrapolation: a guessed truth would judge
 * the decoder against nothing) and next to a missing sample.
 */
export function truePositionAtRows(d: TruePositionSource): Float64Array {
  const sampleTimes = d.decodingPositionTime ?? d.positionTime;
  const samples = d.decodingPosition ?? d.position;
  const q = d.positionDims;
  const out = new Float64Array(d.time.length * q).fill(NaN);
  for (let r = 0; r < d.time.length; r++) {
    const t = d.time[r]!;
    const j = upperBound(sampleTimes, t) - 1;
    if (j < 0) continue;
    if (sampleTimes[j] === t) {
      for (let k = 0; k < q; k++) out[r * q + k] = samples[j * q + k]!;
    } else if (j + 1 < sampleTimes.length) {
      const w = (t - sampleTimes[j]!) / (sampleTimes[j + 1]! - sampleTimes[j]!);
      for (let k = 0; k < q; k++) out[r * q + k] = samples[j * q + k]! * (1 - w) + samples[(j + 1) * q + k]! * w;
    }
  }
  return out;
}

export interface DecodingGrid {
  nTime: number;
  nBins: number;
  /** (nBins × positionDims) row-major */
  binCenters: Float64Array;
  positionDims: number;
}

/** The row's most likely bin, or -1 when the row has a NaN or no finite maximum (no position is most likely). */
export function decodedBin(values: Values, row: number, nBins: number): number {
  const off = row * nBins;
  let best = -1;
  let bestValue = -Infinity;
  for (let p = 0; p < nBins; p++) {
    const v = values[off + p]!;
    if (Number.isNaN(v)) return -1;
    if (v > bestValue) {
      best = p;
      bestValue = v;
    }
  }
  return Number.isFinite(bestValue) ? best : -1;
}

function hasNaN(values: Float64Array, from: number, count: number): boolean {
  for (let k = 0; k < count; k++) if (Number.isNaN(values[from + k]!)) return true;
  return false;
}

/**
 * Median |argmax bin centre − true position| (Euclidean in 2-D) and the share of rows within
 * ACCURACY_RADIUS, over rows with a known true position and a decodable likelihood row; undefined
 * when no row qualifies.
 */
export function decodingAccuracy(likelihood: Values, grid: DecodingGrid, truePosition: Float64Array, units?: string): DecodingAccuracy | undefined {
  const { nTime, nBins, binCenters, positionDims: q } = grid;
  if (likelihood.length !== nTime * nBins || truePosition.length !== nTime * q || binCenters.length !== nBins * q) {
    throw new BugError(
      `decodingAccuracy: likelihood ${likelihood.length}, true position ${truePosition.length} and bin centres ` +
        `${binCenters.length} do not fit ${nTime} rows × ${nBins} bins × ${q} dimensions`,
    );
  }
  const errors: number[] = [];
  for (let r = 0; r < nTime; r++) {
    if (hasNaN(truePosition, r * q, q)) continue;
    const bin = decodedBin(likelihood, r, nBins);
    if (bin < 0) continue;
    let squared = 0;
    for (let k = 0; k < q; k++) squared += (binCenters[bin * q + k]! - truePosition[r * q + k]!) ** 2;
    errors.push(Math.sqrt(squared));
  }
  return accuracyOfErrors(errors, units);
}

/** The accuracy figures of per-row position errors: their median and the share within ACCURACY_RADIUS. */
export function accuracyOfErrors(errors: number[], units?: string): DecodingAccuracy | undefined {
  if (errors.length === 0) return undefined;
  const accuracy: DecodingAccuracy = {
    rows: errors.length,
    medianAbsError: median(errors),
    shareWithin10: errors.filter((e) => e <= ACCURACY_RADIUS).length / errors.length,
  };
  if (units !== undefined) accuracy.units = units;
  return accuracy;
}

function describe(a: DecodingAccuracy): string {
  const units = a.units ? ` ${a.units}` : '';
  return `median error ${Number(a.medianAbsError.toPrecision(3))}${units}, ${formatShare(a.shareWithin10)} of rows within ${ACCURACY_RADIUS}${units}`;
}

/**
 * A warning for each strategy whose decoding differs from the baseline's (the reference where it
 * was measured, else the first strategy with an accuracy): every strategy computes the same
 * likelihood, so a different decoded position is a numerical difference worth checking before
 * trusting the faster one. `binSize` (position units) sets the median tolerance at
 * ACCURACY_MEDIAN_TOLERANCE_BINS bins; without it the tolerance is that many position units.
 */
export function accuracyFindings(strategies: readonly StrategyResult[], binSize?: number): Finding[] {
  const judged = strategies.filter((r): r is StrategyResult & { accuracy: DecodingAccuracy } => r.status === 'ok' && r.accuracy !== undefined);
  const base = judged.find((r) => r.strategy === 'reference') ?? judged[0];
  if (!base) return [];
  const tolerance = ACCURACY_MEDIAN_TOLERANCE_BINS * (binSize !== undefined && binSize > 0 ? binSize : 1);
  const baseLabel = strategyLabel(base);
  return judged
    .filter((r) => r !== base)
    .filter((r) =>
      Math.abs(r.accuracy.medianAbsError - base.accuracy.medianAbsError) > tolerance ||
      Math.abs(r.accuracy.shareWithin10 - base.accuracy.shareWithin10) > ACCURACY_SHARE_TOLERANCE)
    .map((r) => {
      const label = strategyLabel(r);
      return {
        id: `accuracy-differs:${label}`,
        severity: 'warning' as const,
        strategy: label,
        value: r.accuracy.medianAbsError - base.accuracy.medianAbsError,
        message:
          `${label} decodes the position differently from ${baseLabel} (${describe(r.accuracy)}, against ` +
          `${describe(base.accuracy)}) although both compute the same likelihood; ${label} ${agreementOf(r).words}: ` +
          `check its numerical agreement before choosing it for speed.`,
      };
    });
}
