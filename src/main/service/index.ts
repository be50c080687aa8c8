/**
 * The profiler service: runs (queued one at a time, each in its own engine process), the run
 * store on disk, event fan-out, and the views behind ProfilerApi (timeline, counters, likelihood,
 * comparison, export). Shared by the Electron main process, web mode and the CLI.
 *
 * Its rooms, each with an index.ts saying what it must not import: queue/ (runs while they
 * happen), store/ (the runs folder), timeline/ (track view and counters), likelihood/ (saved
 * likelihoods), datasets/ (data files as the API sees them), report/ (a run's report), liveFolder/
 * (the runs folder as other processes share it: whether runs can start there, and their runs,
 * followed for this service's pages). The facade
 * (profilerService.ts) wires them into ProfilerApi. This file is the service's public surface: the
 * front doors and the batch wing import it, never a room. It hands them only what every one of
 * them may import (the lint follows its re-exports): a run folder's names come from
 * engineProtocol/, the Perfetto bundle through exportPerfettoBundle.
 *
 * Must not import electron (the Electron spawn is injected), the engine statically, nor batch/.
 */
export { createProfilerService, type ProfilerService } from './profilerService';
export { processAlive, RunStore, INDEX_FILE, type RunStatusFile } from './store';
export { newRunId, ownerStamp, perfettoBundleFileName } from './store';
export { ENGINE_RSS_COUNTER } from './queue';
export { buildTimelineIndex, queryTimeline } from './timeline';
export { toolVersion } from './report';
export { saveRecipeFor, scanDataView } from './datasets';
export {
  createSweepFolder, deleteSweepFolder, saveSweep, sizesOf, sweepDir, sweepResultOf, SWEEP_FILES, writeSweepData, type SweepPlan,
} from './sweeps';

// What the batch wing (merging shard runs) writes a run with: the store's files and errors, a
// report's headline, and the layout of a saved likelihood.
export { readJson, storeWrite, writeJsonAtomic, writeReportFiles } from './store';
export { headlineOf } from './report';
export { forEachRowChunk, likelihoodLayout, openLikelihood, ROW_CHUNK_BYTES, type LikelihoodLayout } from './likelihood';
