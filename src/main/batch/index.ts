/**
 * Batch work the CLI runs on recorded runs, outside the service's queue: merging the shard runs of
 * a SLURM array into one run (report, trace, likelihoods) in a runs folder of its own.
 *
 * Imports the service's public surface (service/index.ts) for the run store, never a room of it;
 * data/, export/, analysis/, engineProtocol/ (the layout of a run's files), engine/model and
 * shared/. Must not import the engine, engineProcess, host, the front doors (cli/, server/, ipc/)
 * nor electron. The service never imports this wing.
 */
export { mergeShardRuns, type MergeOptions, type MergeResult, type MergeSummary, type ShardSummary } from './mergeRuns';
