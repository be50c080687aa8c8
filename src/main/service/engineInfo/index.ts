/**
 * Facts about this machine's engine before any run: versions and backends (probed once per
 * service in a short-lived engine process, so this process never loads TensorFlow.js), and the
 * peak memory of each strategy a run config asks for and of its posterior stage, from the
 * dataset's summary.
 *
 * Builds on host/ (the probe), datasets/ (the summaries) and report/ (the tool version). Must not
 * import the queue, the store nor the facade.
 */
export { estimateRunMemory, SystemInfoCache } from './engineInfo';
