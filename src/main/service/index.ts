/**
 * The profiler service: runs (queued one at a time, each in its own engine process), the run
 * store on disk, event fan-out, and the views behind ProfilerApi (timeline, counters, likelihood,
 * comparison, export). Shared by the Electron main process, web mode and the CLI.
 *
 * Its rooms, each with an index.ts saying what it must not import: queue/ (a run's lifecycle),
 * store/ (the runs folder), timeline/ (track view and counters), likelihood/ (saved likelihoods),
 * datasets/ (data files as the API sees them), report/ (a run's report). The facade
 * (profilerService.ts) wires them into ProfilerApi. This file is the service's public surface:
 * front doors and the batch wing import it, never a room directly.
 *
 * Must not import electron (the Electron spawn is injected) nor the engine statically.
 */
export { createProfilerService, type ProfilerService, type ProfilerServiceOptions } from './profilerService';
export { processAlive, RunStore, RUN_FILES, INDEX_FILE, type RunStatusFile } from './store';
export { newRunId } from './store';
export { ENGINE_RSS_COUNTER } from './queue';
export { buildTimelineIndex, type TimelineIndex } from './timeline';
export { queryTimeline, MAX_TIMELINE_SPANS } from './timeline';
export { toolVersion } from './report';
export { SystemInfoCache, estimateRunMemory } from './engineInfo';
export {
  buildPerfettoBundle, bundleRunOf, PERFETTO_MANIFEST_FILE, type BundleAlignment, type BundleRun,
} from '../export/perfettoBundle';
export { mergeShardRuns, MERGE_SUMMARY_FILE, type MergeOptions, type MergeResult, type MergeSummary, type ShardSummary } from './mergeRuns';
export { defaultNpzPath, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './datasets';
export { createSweepFolder, deleteSweepFolder, listSweeps, readSweep, saveSweep, sizesOf, sweepCsv, sweepDir, sweepResultOf, SWEEP_FILES, SWEEPS_DIR, type SweepPlan } from './sweeps';
export { nestedSubset, writeSweepData, type SweepDataFile, type SweepDataRequest } from './sweepData';
