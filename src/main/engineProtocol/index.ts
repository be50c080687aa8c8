/**
 * The wire between the service (host/) and the engine process (engineProcess/): the messages each
 * side sends, the open-span list of a live run, and the layout of a run's folder, which both
 * processes write and the CLI, batch/ and export/ name (runFolder.ts: every run file's name is
 * said there and nowhere else). It holds types, guards and constants only.
 *
 * Must not import node, electron, tfjs or either side of the wire.
 */
export type {
  CancelMessage, DecodeRequest, EngineOutcome, EngineToHost, HostToEngine, ProbeMessage, ProbeResult, StartMessage, StrategyWindow,
} from './messages';
export { HEARTBEAT_INTERVAL_MS, isEngineMessage, isHostMessage } from './messages';
export { ENGINE_PROCESS_SPAN, isOpenSpanList, type OpenSpan } from './openSpans';
export {
  AXES_FILE, DECODE_SUMMARY_FILE, EXTERNAL_DATA_FILE, EXTERNAL_DIR, externalEngineDir, LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath,
  MERGE_SUMMARY_FILE, PARTIAL_SUFFIX, PLAIN_TRACE_FILE, RESULT_FOLDER_NAMES, POSTERIOR_DIR, POSTERIOR_FILES, POSTERIOR_WORK_DIR, POSTERIOR_WORK_LIKELIHOOD, REPORT_FILES,
  RUN_FILES, type DecodeSummary, type LikelihoodAxes, type PosteriorSummary,
} from './runFolder';
