/**
 * The profiler service: runs (queued one at a time, each in its own engine process), the run
 * store on disk, event fan-out, and the views behind ProfilerApi (timeline, counters, likelihood,
 * comparison, export). Shared by the Electron main process, web mode and the CLI.
 *
 * Its rooms, each with an index.ts saying what it must not import: queue/ (runs while they
 * happen), store/ (the runs folder), timeline/ (track view and counters), likelihood/ (saved
 * likelihoods), datasets/ (data files as the API sees them), report/ (a run's report). The facade
 * (profilerService.ts) wires them into ProfilerApi. This file is the service's public surface: the
 * front doors and the batch wing import it, never a room.
 *
 * Must not import electron (the Electron spawn is injected), the engine statically, nor batch/.
 */
export { createProfilerService, type ProfilerService, type ProfilerServiceOptions } from './profilerService';
export { processAlive, RunStore, RUN_FILES, INDEX_FILE, type RunStatusFile } from './store';
export { newRunId, ownerStamp } from './store';
export { ENGINE_RSS_COUNTER } from './queue';
export { buildTimelineIndex, type TimelineIndex } from './timeline';
export { queryTimeline, MAX_TIMELINE_SPANS } from './timeline';
export { toolVersion } from './report';
export { SystemInfoCache, estimateRunMemory } from './engineInfo';
export {
  buildPerfettoBundle, bundleRunOf, PERFETTO_MANIFEST_FILE, type BundleAlignment, type BundleRun,
} from '../export';
export { defaultNpzPath, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './datasets';
export {
  createSweepFolder, deleteSweepFolder, listSweeps, readSweep, saveSweep, sizesOf, sweepCsv, sweepDir, sweepResultOf, SWEEP_FILES, SWEEPS_DIR,
  writeSweepData, type SweepDataFile, type SweepDataRequest, type SweepPlan,
} from './sweeps';
export { nestedSubset } from '../data';

// What the batch wing (merging shard runs) writes a run with: the store's files and errors, a
// report's headline, and the layout of a saved likelihood.
export { readJson, storeWrite, writeJsonAtomic, writeReportFiles } from './store';
export { headlineOf } from './report';
export { forEachRowChunk, likelihoodLayout, openLikelihood, ROW_CHUNK_BYTES, type LikelihoodLayout } from './likelihood';
