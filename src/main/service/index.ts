/**
 * The profiler service: runs (queued one at a time, each in its own engine process), the run
 * store on disk, event fan-out, and the views behind ProfilerApi (timeline, counters, likelihood,
 * comparison, export). Shared by the Electron main process, web mode and the CLI.
 *
 * Must not import electron (the Electron spawn is injected) nor the engine statically.
 */
export { createProfilerService, type ProfilerService, type ProfilerServiceOptions } from './profilerService';
export { processAlive, RunStore, RUN_FILES, INDEX_FILE, type RunStatusFile } from './runStore';
export { newRunId } from './runIds';
export { ENGINE_RSS_COUNTER } from './activeRun';
export { buildTimelineIndex, type TimelineIndex } from './timelineIndex';
export { queryTimeline, MAX_TIMELINE_SPANS } from './timelineQuery';
export { toolVersion } from './reportBuilder';
export { SystemInfoCache, estimateRunMemory } from './engineInfo';
export {
  buildPerfettoBundle, bundleRunOf, PERFETTO_MANIFEST_FILE, type BundleAlignment, type BundleRun,
} from '../export/perfettoBundle';
export { mergeShardRuns, MERGE_SUMMARY_FILE, type MergeOptions, type MergeResult, type MergeSummary, type ShardSummary } from './mergeRuns';
export { defaultNpzPath, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './dataMapping';
export { createSweepFolder, deleteSweepFolder, listSweeps, readSweep, saveSweep, sizesOf, sweepCsv, sweepDir, sweepResultOf, SWEEP_FILES, SWEEPS_DIR, type SweepPlan } from './sweeps';
export { nestedSubset, writeSweepData, type SweepDataFile, type SweepDataRequest } from './sweepData';
