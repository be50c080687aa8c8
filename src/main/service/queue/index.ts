/**
 * Runs while they happen: the queue that runs them one at a time, one run's lifecycle from queued
 * to ended (engine process, event log, RSS sampling, report, trace and final status) as one phase
 * value, and the messages a run that could not be recorded ends with.
 *
 * Builds on store/, timeline/ and report/. Must not import the facade (profilerService.ts) nor the
 * likelihood and dataset rooms: the facade owns the queue, never the other way round.
 */
export { ActiveRun, type ActiveRunOptions } from './activeRun';
export { ENGINE_RSS_COUNTER } from './engineRss';
export { MAX_QUEUED_RUNS, RunQueue, type RunQueueOptions } from './runQueue';
