/**
 * The state-space posterior of non_local_detector's ClusterlessDecoder and
 * NonLocalClusterlessDetector (shared/spec/posterior-spec.md): place grid, state space,
 * transitions, the per-state log likelihood's assembly, the causal filter and acausal smoother as
 * window-by-window steppers, and the outputs.
 *
 * Plain TypeScript on the host in float32 storage: it must not import TensorFlow.js (a backend
 * version is a separate concern) nor anything outside src/shared.
 */
export type { PlaceGrid } from './grid';
export { buildStateSpace, DEFAULT_MOVEMENT_VAR, DEFAULT_NO_SPIKE_RATE } from './stateSpace';
export type { PosteriorModel, StateKind, StateLayout, StateSpace, StateSpaceOptions, Transitions } from './stateSpaceTypes';
export { denseTransition64 } from './transitions';
export { expandStructured, type BandBlock, type RankOneBlock, type StructuredTransition } from './structuredTransition';
export { transitionProduct, type TransitionProduct, type TransitionStrategy } from './transitionProducts';
export { noSpikeLogLikelihood } from './noSpike';
export { assembleLogLikelihood, type LikelihoodParts } from './logLikelihood';
export { CausalFilter, NORMALIZE_EPS } from './causalFilter';
export { AcausalSmoother } from './acausalSmoother';
export { filterSmooth, type FilterSmoothResult } from './filterSmooth';
export { assembleOutputs, mapPosition, maskedPosterior, stateProbabilities, type PosteriorOutputs } from './outputs';
export {
  filterRowWork, posteriorMemoryEstimate, smoothRowWork, transitionBytes, transitionProductWork, type PosteriorMemoryEstimate,
} from './posteriorWork';
