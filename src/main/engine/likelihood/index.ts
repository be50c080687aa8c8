/**
 * The non-local likelihood (kde-spec §4.1–4.5), one pipeline: a predict's plan (per electrode its
 * spikes and the strategy, resolved once, and why), an executor that computes the planned terms
 * (on this thread here; the engine process's pool implements the same seam), and their sum into
 * the float64 likelihood in electrode order, so the bits do not depend on who computed them, whole
 * or window by window.
 *
 * Part of the engine: imports tfjs, the engine's other modules, engine/model and src/shared only.
 */
export { electrodeSpanArgs, electrodeTerms, type TermBlockSink, type TermReader } from './electrodeTerms';
export { inThreadExecutor, type NonlocalExecutor, type RunningTerms } from './executor';
export { addFloorTerms, addTermsToRows, groundProcessRows, LikelihoodSum, type TermSink } from './likelihoodSum';
export { OrderedTermSum, type ElectrodeRows, type TermListener } from './orderedTermSum';
export {
  decodingSpikes, electrodeTermsKind, planNonlocal, seriesReachOf,
  type DecodingSpikes, type ElectrodeMarks, type ElectrodePlan, type ElectrodeTermsKind, type NonlocalPlan, type PlannedModel, type PlannedTerms,
  type ReachSource,
} from './plan';
export { predictNonlocal, predictNonlocalWith, runNonlocalPlan } from './predict';
export { predictNonlocalWindows, predictNonlocalWindowsWith, windowBounds, type WindowRows } from './windows';
