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

  private constructor(private readonly truth: Float64Array, private readonly dims: number) {
    this.errors = new Float64Array(truth.length / dims).fill(NaN);
  }

  /**
   * One tally per name, all against the same true positions (interpolated once); undefined when no
   * row has a true position to compare with. Errors are Euclidean distances in 2-D.
   */
  static of<K extends string>(dataset: Dataset, names: readonly K[]): Record<K, PositionErrors> | undefined {
    const truth = truePositionAtRows(dataset);
    if (!truth.some((v) => !Number.isNaN(v))) return undefined;
    return Object.fromEntries(names.map((name) => [name, new PositionErrors(truth, dataset.positionDims)])) as Record<K, PositionErrors>;
  }

  /** The decoded positions (rows × dims) of rows [start, start + rows); NaN where nothing was decoded. */
  add(start: number, decoded: ArrayLike<number>): void {
    const q = this.dims;
    for (let k = 0; k < decoded.length / q; k++) {
      let sum = 0;
      for (let d = 0; d < q; d++) sum += (decoded[k * q + d]! - this.truth[(start + k) * q + d]!) ** 2;
      this.errors[start + k] = Math.sqrt(sum);
    }
  }

  summary(units?: string): DecodingAccuracy | undefined {
    return accuracyOfErrors(Array.from(this.errors).filter((e) => !Number.isNaN(e)), units);
  }
}

/**
 * The centre (dims values) of each row's most likely interior bin (its likelihood's argmax); NaN
 * for a row with no finite maximum. `centers` is the interior bins' (P × dims).
 */
export function likelihoodArgmax(values: Float32Array, rows: number, centers: ArrayLike<number>, dims = 1): Float64Array {
  const out = new Float64Array(rows * dims).fill(NaN);
  const bins = centers.length / dims;
  for (let t = 0; t < rows; t++) {
    const best = decodedBin(values, t, bins);
    if (best >= 0) for (let d = 0; d < dims; d++) out[t * dims + d] = centers[best * dims + d]!;
  }
  return out;
}
