/**
 * The engine process and its host side: spawning (fork under Node, an injected utilityProcess
 * under Electron), the message protocol, cancel/kill, crash and out-of-memory reasons, RSS
 * sampling of the engine from outside, and the spans a live run has open (for the live
 * timeline). engineMain.ts is the entry of the engine process itself.
 *
 * Must not import electron (the Electron spawn is injected by main/index.ts) nor the engine
 * statically: the engine and tfjs load only inside the engine process.
 */
export {
  adaptUtilityProcess,
  defaultEngineEntry,
  forkEngine,
  type EngineChild,
  type EngineExit,
  type ForkOptions,
  type SpawnEngine,
  type UtilityProcessLike,
} from './engineChild';
export { CANCEL_GRACE_MS, describeEngineExit, probeEngine, startEngine, type EngineEnd, type EngineHandle, type EngineListeners } from './engineHost';
export type { EngineOutcome, EngineToHost, HostToEngine, ProbeResult, StartMessage, StrategyWindow } from './messages';
export { startRssSampler, type RssSample, type RssSampler } from './rssSampler';
export { ENGINE_PROCESS_SPAN, openSpansOf, type OpenSpan } from './openSpans';
export { AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath, type LikelihoodAxes } from './likelihoodFiles';
