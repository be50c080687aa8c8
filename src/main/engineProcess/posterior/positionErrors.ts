/**
 * Accuracy from the posterior (issue: the posterior should decode the animal better than the
 * likelihood alone): per row, how far the decoded position lies from the true one, gathered window
 * by window as the filter and smoother pass, then summarised as the report's accuracy figures
 * (median error, share of rows within the accuracy radius).
 */
import type { Dataset } from '../../../shared/dataset';
import type { DecodingAccuracy } from '../../../shared/report';
import { accuracyOfErrors, truePositionAtRows } from '../../analysis';

export class PositionErrors {
  private readonly errors: Float64Array;

  private constructor(private readonly truth: Float64Array) {
    this.errors = new Float64Array(truth.length).fill(NaN);
  }

  /** Undefined when the positions are not 1-D or no row has a true position to compare with. */
  static of(dataset: Dataset): PositionErrors | undefined {
    if (dataset.positionDims !== 1) return undefined;
    const truth = truePositionAtRows(dataset);
    return truth.some((v) => !Number.isNaN(v)) ? new PositionErrors(truth) : undefined;
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
  const bins = centers.length;
  const out = new Float64Array(rows).fill(NaN);
  for (let t = 0; t < rows; t++) {
    let best = -1;
    let bestValue = -Infinity;
    for (let p = 0; p < bins; p++) {
      const v = values[t * bins + p]!;
      if (v > bestValue) {
        best = p;
        bestValue = v;
      }
    }
    if (best >= 0 && Number.isFinite(bestValue)) out[t] = centers[best]!;
  }
  return out;
}
