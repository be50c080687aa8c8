/**
 * The causal (forward) filter of posterior-spec §9, one window of rows at a time so a caller can
 * stream a long recording: the prediction for the next row is carried from window to window.
 * Posteriors are stored in float32 like upstream; sums and the scaling run in float64.
 */
import { repeatedLikelihoodParts, rowConditioner, type RowConditioner } from './conditionKernel';
import type { StateSpace } from './stateSpaceTypes';
import { transitionProduct, type ProductKernels, type TransitionProduct, type TransitionMethod } from './transitionProducts';

/** core._normalize adds it to the denominator; a row with no mass stays zero instead of NaN. */
export const NORMALIZE_EPS = 1e-15;

export class CausalFilter {
  private readonly product: TransitionProduct;
  private readonly conditioner: RowConditioner;
  private readonly n: number;
  /** the prediction for the next row to filter; the first row's is the initial distribution */
  private readonly prediction: Float32Array;
  private readonly scaled: Float64Array;
  private readonly next: Float64Array;
  private logLikelihood = 0;
  private rowsFiltered = 0;

  /** `kernels` 'plain' keeps the loops that define the kernels' results (tests compare the two) */
  constructor(space: StateSpace, method: TransitionMethod, kernels: ProductKernels = 'auto') {
    this.n = space.nInteriorStateBins;
    this.product = transitionProduct(space, method, kernels);
    this.conditioner = rowConditioner(this.n, kernels, repeatedLikelihoodParts(space));
    // no transition before the first row: pred_0 is the initial distribution itself (§15)
    this.prediction = Float32Array.from(space.initial);
    this.scaled = new Float64Array(this.n);
    this.next = new Float64Array(this.n);
  }

  /** log p(all rows filtered so far) */
  get marginalLogLikelihood(): number {
    return this.logLikelihood;
  }

  get rows(): number {
    return this.rowsFiltered;
  }

  /** The prediction the next row will start from (f_{t} @ A of the last row filtered). */
  get lastPrediction(): Float32Array {
    return this.prediction;
  }

  /**
   * Filters `rows` rows of `ll` (rows × N, row-major) into `outCausal` (and, when given, the
   * prediction each row started from into `outPredictive`).
   */
  filterWindow(ll: Float32Array, rows: number, outCausal: Float32Array, outPredictive?: Float32Array): void {
    const n = this.n;
    if (ll.length < rows * n || outCausal.length < rows * n || (outPredictive && outPredictive.length < rows * n)) {
      throw new RangeError(`filterWindow needs ${rows} × ${n} values in and out`);
    }
    for (let t = 0; t < rows; t++) {
      const base = t * n;
      outPredictive?.set(this.prediction, base);
      this.conditionRow(ll, base, outCausal);
      this.product.forward(outCausal, base, this.next);
      // a typed set rounds each float64 to float32 as an element store does, natively
      this.prediction.set(this.next);
    }
    this.rowsFiltered += rows;
  }

  /** f_t = u / (c + eps), u = pred ⊙ exp(LL − m), m the row's maximum (0 when not finite). */
  private conditionRow(ll: Float32Array, base: number, out: Float32Array): void {
    const { n, prediction } = this;
    const rowMax = this.conditioner.rowMax(ll, base);
    const max = Number.isFinite(rowMax) ? rowMax : 0;
    // a row holding +∞ is conditioned with Math.exp, which overflows to +∞ as upstream's exp does
    const withMathExp = rowMax === Infinity;
    const mass = withMathExp ? this.conditionWithMathExp(ll, base) : this.conditioner.condition(ll, base, prediction, max);
    const inverse = 1 / (mass + NORMALIZE_EPS);
    if (withMathExp) for (let k = 0; k < n; k++) out[base + k] = this.scaled[k]! * inverse;
    else this.conditioner.normalizeInto(out, base, inverse);
    this.logLikelihood += Math.log(mass) + max;
  }

  /** u = pred ⊙ exp(LL) into `scaled` (m = 0): only a row with +∞ in it comes here */
  private conditionWithMathExp(ll: Float32Array, base: number): number {
    const { n, prediction, scaled } = this;
    let mass = 0;
    for (let k = 0; k < n; k++) {
      const u = prediction[k]! * Math.exp(ll[base + k]!);
      scaled[k] = u;
      mass += u;
    }
    return mass;
  }
}
