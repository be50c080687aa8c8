/**
 * The non-local likelihood (kde-spec §4.1–4.5): a predict's plan (per electrode the strategy,
 * resolved once, and why), the terms each electrode's strategy computes, and their sum into the
 * float64 likelihood in electrode order, whole or window by window.
 *
 * Part of the engine: imports tfjs, the rest of the engine, engine/model and src/shared only.
 */
export {
  decodingSpikes, electrodeTermsKind, electrodeSpanArgs, electrodeTerms, planElectrode, predictNonlocal,
  type ElectrodePlan, type ElectrodeTermsKind, type TermBlockSink, type TermReader,
} from './predict';
export { addFloorTerms, addTermsToRows, groundProcessRows, LikelihoodSum, type TermSink } from './likelihoodSum';
export { OrderedTermSum, type ElectrodeRows, type TermListener } from './orderedTermSum';
export { predictNonlocalWindows, windowBounds, type NonlocalPredict } from './windows';
