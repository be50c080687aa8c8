/**
 * External engines inside the engine process (docs/external-engines.md): other implementations of
 * the likelihood or of the whole decode started as child processes on the run's data, recorded on lanes of their own and
 * turned into results rows beside the engine's strategies.
 */
export { comparePosteriorEngines } from './posteriorAgreement';
export { externalUnits, measureExternalEngines, type ExternalSink } from './measureExternal';
