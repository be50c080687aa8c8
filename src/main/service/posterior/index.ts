/**
 * A decode run's state-space posterior (posterior/*.npy and decode.json's posterior) as the page
 * draws it: the columns of each state, the thinned posterior over position, the state
 * probabilities and the MAP position per displayed row.
 *
 * Reads files only. Must not import the rest of the service (store, queue, timeline, the facade)
 * but the likelihood room, whose row reader it shares: the caller hands in the run's folder.
 */
export { posteriorColumns, readPosteriorSummary, type PosteriorColumns } from './posteriorColumns';
export { posteriorView, type PosteriorReadOptions } from './posteriorView';
