/**
 * The wire between the service (host/) and the engine process (engineProcess/): the messages each
 * side sends, the open-span list of a live run, and the layout of the files the engine process
 * leaves in a run's folder. Both processes import it; it holds types, guards and constants only.
 *
 * Must not import node, electron, tfjs or either side of the wire.
 */
export type {
  CancelMessage, DecodeRequest, EngineOutcome, EngineToHost, HostToEngine, ProbeMessage, ProbeResult, StartMessage, StrategyWindow,
} from './messages';
export { HEARTBEAT_INTERVAL_MS, isEngineMessage, isHostMessage } from './messages';
export { ENGINE_PROCESS_SPAN, isOpenSpanList, type OpenSpan } from './openSpans';
export {
  AXES_FILE, DECODE_SUMMARY_FILE, LIKELIHOOD_DIR, likelihoodRelPath, PARTIAL_SUFFIX, POSTERIOR_FILES, type DecodeSummary, type LikelihoodAxes,
  type PosteriorSummary,
} from './runFolder';
