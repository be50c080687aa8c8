/**
 * A decode run's state-space posterior (posterior/*.npy and decode.json's posterior) as the page
 * draws it: the columns of each state, the thinned posterior over position, the state
 * probabilities and the MAP position per displayed row; for a 2-D decode the map at one row, on
 * the grid read again from the dataset the run decoded (PosteriorGrids keeps it per run).
 *
 * Reads files only. Must not import the rest of the service (store, queue, timeline, the facade)
 * but the likelihood room, whose row reader it shares: the caller hands in the run's folder and,
 * for a 2-D decode, the run's data source.
 */
export { posteriorColumns, readPosteriorSummary, type PosteriorColumns } from './posteriorColumns';
export { PosteriorGrids, type DatasetLoader, type PosteriorGridInfo } from './posteriorGrid';
export { posteriorMap } from './posteriorMap';
export { posteriorView, type PosteriorReadOptions } from './posteriorView';
