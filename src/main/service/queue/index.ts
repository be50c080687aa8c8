/**
 * Runs while they happen: one run's lifecycle from queued to ended (engine process, event log,
 * RSS sampling, report, trace and final status) and the messages a run that could not be recorded
 * ends with.
 *
 * Builds on store/, timeline/ and report/. Must not import the facade (profilerService.ts) nor the
 * likelihood and dataset rooms: the facade owns the queue, never the other way round.
 */
export { ActiveRun, ENGINE_RSS_COUNTER, type ActiveRunOptions } from './activeRun';
