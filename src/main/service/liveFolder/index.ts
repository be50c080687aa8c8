/**
 * The runs folder as other processes and the system share it: whether runs can start in it (a
 * read-only folder is browsed, never run in), the progress file a run keeps for pages served by
 * another process, and the runs other processes are running there, followed so that this
 * service's pages hear of them (status, progress, timeline) as of its own.
 *
 * Builds on store/ (the folder's files) and timeline/ (a followed run's live timeline). Must not
 * import the queue, the calls, nor the facade: the facade wires these beside the queue.
 */
export { assertRunsCanStart, runsFolderState } from './runsFolderAccess';
export { PROGRESS_FILE, PROGRESS_WRITE_INTERVAL_MS, ProgressFiles, readLiveStateFile, readProgressFile, type SavedLiveState } from './progressFile';
export { EVENT_TAIL_LIMITS, EventTail, type EventTailLimits } from './eventTail';
export { OTHER_PROCESS_RUNS, OtherProcessRuns, type OtherProcessRunsDeps, type OtherProcessRunsOptions } from './otherProcessRuns';
