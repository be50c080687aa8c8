/**
 * Which backend a run's `auto` takes, measured on the run's own data where a GPU could take it
 * (measuredChoice.ts). A room of its own because it drives the fit and the likelihood, which the
 * backends room sits under.
 */
export { calibrationSlice, initBackendFor, type CandidateTime, type ChoiceContext } from './measuredChoice';
