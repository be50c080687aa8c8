/**
 * The service's side of the engine process (runs in the service's process): spawning (fork under
 * Node, an injected utilityProcess under Electron), sending and receiving the engineProtocol
 * messages, cancel/kill, crash and out-of-memory reasons, RSS sampling of the engine from outside,
 * and the spans a live engine has open. What runs inside the engine process is engineProcess/.
 *
 * Must not import electron (the Electron spawn is injected by main/index.ts), the engine or
 * engineProcess/: tfjs loads only inside the engine process.
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
export { startRssSampler, type RssSample, type RssSampler } from './rssSampler';
