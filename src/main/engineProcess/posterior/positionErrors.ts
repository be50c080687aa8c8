/**
 * Accuracy from the posterior (issue: the posterior should decode the animal better than the
 * likelihood alone): per row, how far the decoded position lies from the true one, gathered window
 * by window as the filter and smoother pass, then summarised as the report's accuracy figures
 * (median error, share of rows within the accuracy radius).
 */
import type { Dataset } from '../../../shared/dataset';
import type { DecodingAccuracy } from '../../../shared/report';
import { accuracyOfErrors, decodedBin, truePositionAtRows } from '../../analysis';

export class PositionErrors {
  private readonly errors: Float64Array;

  private constructor(private readonly truth: Float64Array) {
    this.errors = new Float64Array(truth.length).fill(NaN);
  }

  /**
   * One tally per name, all against the same true positions (interpolated once); undefined when the
   * positions are not 1-D or no row has a true position to compare with.
   */
  static of<K extends string>(dataset: Dataset, names: readonly K[]): Record<K, PositionErrors> | undefined {
    if (dataset.positionDims !== 1) return undefined;
    const truth = truePositionAtRows(dataset);
    if (!truth.some((v) => !Number.isNaN(v))) return undefined;
    return Object.fromEntries(names.map((name) => [name, new PositionErrors(truth)])) as Record<K, PositionErrors>;
  }

  /** The decoded position of rows [start, start + decoded.length); NaN where nothing was decoded. */
  add(start: number, decoded: ArrayLike<number>): void {
    for (let k = 0; k < decoded.length; k++) this.errors[start + k] = Math.abs(decoded[k]! - this.truth[start + k]!);
  }

  summary(units?: string): DecodingAccuracy | undefined {
    return accuracyOfErrors(Array.from(this.errors).filter((e) => !Number.isNaN(e)), units);
  }
}

/** The centre of each row's most likely interior bin (its likelihood's argmax); NaN for a row with no finite maximum. */
export function likelihoodArgmax(values: Float32Array, rows: number, centers: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows).fill(NaN);
  for (let t = 0; t < rows; t++) {
    const best = decodedBin(values, t, centers.length);
    if (best >= 0) out[t] = centers[best]!;
  }
  return out;
}
