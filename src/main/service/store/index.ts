/**
 * The run store: one folder per run under the runs folder (status, config, events.ndjson, a running
 * run's progress, report files, trace), the shared index.json (compact, capped by the run folders
 * it lists, read in place of every status file when a store first meets a large runs folder, and
 * kept up to date by a journal that each status write appends a line to) and its lock, run
 * ids, atomic JSON and text writes, the append-only event log, and the errors a full or read-only
 * runs folder turns into. Also the bytes of a recorded run's exports.
 *
 * Must not import the rest of the service (queue, timeline, likelihood, datasets, the facade) nor
 * the batch wing: they build on the store, never the other way round. It may import report/ for
 * the tool version stamped into written files.
 */
export { EventLog, eventLogError, openEventFile, type EventLogOptions, type OpenEventStream } from './eventLog';
export { withFileLock, type FileLockOptions } from './indexLock';
export { readJson, writeJsonAtomic, writeTextAtomic } from './jsonFiles';
export { ownerAlive, ownerStamp, processAlive, processCpuTicks, processStartTicks, type OwnerRecord } from './ownerProcess';
export { bundleAlignment, exportBytes, perfettoBundleBytes, perfettoBundleFileName, type ExportBytes } from './runExport';
export { buildTraceFile, writeReportFiles, writeTraceFromEvents, type TraceWriteResult } from './runFiles';
export { newRunId } from './runIds';
export { INDEX_FILE } from './runIndex';
export { entryOf, RunStore, type RunStatusFile } from './runStore';
// the store keeps the runs' folders, so the service's rooms find a run folder's names here too
export { RUN_FILES } from '../../engineProtocol';
export { errnoOf, RunsFolderError, storeWrite, storeWriteError, writeProblemOf, type StoreWriteProblem } from './storeErrors';
