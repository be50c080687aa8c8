/**
 * Filter and smoother over whole arrays in one window each: the convenience form of the
 * window-by-window steppers.
 */
import { AcausalSmoother } from './acausalSmoother';
import { CausalFilter } from './causalFilter';
import type { StateSpace } from './stateSpaceTypes';
import type { TransitionMethod } from './transitionProducts';

export interface FilterSmoothResult {
  /** T × N over interior state bins, float32 */
  causal: Float32Array;
  predictive: Float32Array;
  acausal: Float32Array;
  marginalLogLikelihood: number;
}

export function filterSmooth(space: StateSpace, ll: Float32Array, rows: number, method: TransitionMethod): FilterSmoothResult {
  const size = rows * space.nInteriorStateBins;
  const causal = new Float32Array(size);
  const predictive = new Float32Array(size);
  const acausal = new Float32Array(size);
  const filter = new CausalFilter(space, method);
  filter.filterWindow(ll, rows, causal, predictive);
  new AcausalSmoother(space, method).smoothWindow(causal, rows, acausal, predictive);
  return { causal, predictive, acausal, marginalLogLikelihood: filter.marginalLogLikelihood };
}
