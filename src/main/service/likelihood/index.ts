/**
 * Saved likelihoods of a run (likelihood/<strategy>.npy): the checked request, the file's layout
 * and its reading in row chunks, and the thinned view the page draws.
 *
 * Reads files only. Must not import the rest of the service (store, queue, timeline, the facade):
 * the caller hands in the run's folder.
 */
export { likelihoodRequest, type CheckedLikelihoodRequest } from './likelihoodRequest';
export { forEachRowChunk, likelihoodLayout, openLikelihood, ROW_CHUNK_BYTES, type LayoutOptions, type LikelihoodLayout } from './likelihoodRows';
export { blocks, likelihoodView, readAxes, savedLikelihoods, type LikelihoodReadOptions } from './likelihoodView';
