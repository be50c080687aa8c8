/**
 * The acausal (backward) smoother of posterior-spec §10, one window at a time from the last window
 * to the first: the smoothed posterior of the row after the window is carried between calls.
 */
import { NORMALIZE_EPS } from './causalFilter';
import type { StateSpace } from './stateSpaceTypes';
import { transitionProduct, type TransitionProduct, type TransitionMethod } from './transitionProducts';

export class AcausalSmoother {
  private readonly product: TransitionProduct;
  private readonly n: number;
  /** a_{t+1}: the smoothed posterior of the row after the next one to smooth, once there is one */
  private readonly after: Float32Array;
  private hasAfter = false;
  /** the first predictive row of the window smoothed last, when the caller gave one */
  private readonly carriedPrediction: Float32Array;
  private hasCarriedPrediction = false;
  private readonly predicted: Float64Array;
  private readonly ratio: Float64Array;
  private readonly back: Float64Array;

  constructor(space: StateSpace, method: TransitionMethod) {
    this.n = space.nInteriorStateBins;
    this.product = transitionProduct(space, method);
    this.after = new Float32Array(this.n);
    this.carriedPrediction = new Float32Array(this.n);
    this.predicted = new Float64Array(this.n);
    this.ratio = new Float64Array(this.n);
    this.back = new Float64Array(this.n);
  }

  /**
   * Smooths the causal posterior of one window (rows × N) into `outAcausal`. Windows come last
   * first; the very last row of the recording is its own causal posterior, normalised.
   *
   * With the filter's `predictive` posterior of the same window, f_t @ A is not recomputed: the
   * prediction of row t + 1 is exactly that product, rounded to float32 as here, so the result
   * is the same bit for bit with one matrix product per row fewer.
   */
  smoothWindow(causal: Float32Array, rows: number, outAcausal: Float32Array, predictive?: Float32Array): void {
    const n = this.n;
    if (causal.length < rows * n || outAcausal.length < rows * n || (predictive && predictive.length < rows * n)) {
      throw new RangeError(`smoothWindow needs ${rows} × ${n} values in and out`);
    }
    const { back, ratio, after } = this;
    for (let t = rows - 1; t >= 0; t--) {
      const base = t * n;
      if (this.hasAfter) this.smoothRow(causal, base, predictive, t, rows);
      else back.fill(1);
      let mass = 0;
      for (let k = 0; k < n; k++) {
        const s = causal[base + k]! * back[k]!;
        ratio[k] = s;
        mass += s;
      }
      const inverse = 1 / (mass + NORMALIZE_EPS);
      for (let k = 0; k < n; k++) ratio[k] = ratio[k]! * inverse;
      // typed sets round to float32 as element stores do: a_t, then the same float32 values out
      after.set(ratio);
      outAcausal.set(after, base);
      this.hasAfter = true;
    }
    this.hasCarriedPrediction = predictive !== undefined && rows > 0;
    if (predictive && rows > 0) this.carriedPrediction.set(predictive.subarray(0, n));
  }

  /**
   * back = A @ (a_{t+1} / p), p = pred_{t+1} = f_t @ A in float32 and the ratio 0 where p is 0
   * (_divide_safe). p is read from the next row of this window's predictive, or the later window's
   * first row, where the caller gave them (already float32, so read in place); else computed.
   */
  private smoothRow(causal: Float32Array, base: number, predictive: Float32Array | undefined, t: number, rows: number): void {
    const { n, predicted, ratio, after } = this;
    const source = !predictive ? null : t + 1 < rows ? predictive : this.hasCarriedPrediction ? this.carriedPrediction : null;
    if (source) {
      const offset = source === predictive ? (t + 1) * n : 0;
      for (let k = 0; k < n; k++) {
        const p = source[offset + k]!;
        ratio[k] = p !== 0 ? after[k]! / p : 0;
      }
    } else {
      this.product.forward(causal, base, predicted);
      for (let k = 0; k < n; k++) {
        const p = Math.fround(predicted[k]!);
        ratio[k] = p !== 0 ? after[k]! / p : 0;
      }
    }
    this.product.backward(ratio, this.back);
  }
}
