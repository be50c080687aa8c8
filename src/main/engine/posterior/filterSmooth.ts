/**
 * Filter and smoother over whole arrays in one window each: the convenience form of the
 * window-by-window steppers.
 */
import { AcausalSmoother } from './acausalSmoother';
import { CausalFilter } from './causalFilter';
import type { StateSpace } from './stateSpaceTypes';
import type { TransitionMethod } from './transitionProducts';

/** The three posteriors, T × N over interior state bins, float32 */
export interface FilterSmoothOutputs {
  causal: Float32Array;
  predictive: Float32Array;
  acausal: Float32Array;
}

export interface FilterSmoothResult extends FilterSmoothOutputs {
  marginalLogLikelihood: number;
}

/**
 * `into`, where given, receives the posteriors (every value written; each at least T × N long), as
 * a windowed decode reuses its window's buffers: a caller timing repeated calls then measures the
 * filter and smoother, not the first writes into fresh memory (page faults that cost more than
 * the arithmetic on some machines).
 */
export function filterSmooth(space: StateSpace, ll: Float32Array, rows: number, method: TransitionMethod, into?: FilterSmoothOutputs): FilterSmoothResult {
  const size = rows * space.nInteriorStateBins;
  if (into && [into.causal, into.predictive, into.acausal].some((a) => a.length < size)) {
    throw new RangeError(`filterSmooth: each output needs ${rows} × ${space.nInteriorStateBins} values`);
  }
  const causal = into?.causal ?? new Float32Array(size);
  const predictive = into?.predictive ?? new Float32Array(size);
  const acausal = into?.acausal ?? new Float32Array(size);
  const filter = new CausalFilter(space, method);
  filter.filterWindow(ll, rows, causal, predictive);
  new AcausalSmoother(space, method).smoothWindow(causal, rows, acausal, predictive);
  return { causal, predictive, acausal, marginalLogLikelihood: filter.marginalLogLikelihood };
}
