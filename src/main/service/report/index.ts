/**
 * A run's report: assembled from what the engine measured (timings, memory, findings,
 * recommendation, environment), its headline for the run list, and the tool version stamped into
 * every written file.
 *
 * Data in, data out apart from reading package.json once. Must not import the rest of the service:
 * the queue, the store and the batch wing all build on it.
 */
export { headlineOf } from './headline';
export { buildReport, environment, toolVersion, type ReportInput } from './reportBuilder';
