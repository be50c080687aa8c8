/**
 * Data files as the service sees them: summaries of a run's dataset (cached by file and mtime),
 * NWB scans and saved recipes, and a source exported as clusterless-npz. Loading and writing the
 * files is data/'s work; this room checks the caller's arguments and shapes the answers.
 *
 * Must not import the rest of the service (store, queue, timeline, likelihood, the facade) other
 * than the argument checks in validate.ts.
 */
export { defaultNpzPath, exportSourceAsNpz, MAX_SCAN_FILES, saveRecipeFor, scanDataView, withScale } from './dataMapping';
export { DatasetSummaryCache } from './datasetSummaries';
