/**
 * Where a run is in its life, as one value: what each phase knows (the engine's handle, whether
 * the engine has exited, a failure to record) exists only in the phases where it means something.
 *
 * queued → running → ended, or queued → ended (cancelled before it started), or
 * running → cancelling → ended. A run that cannot record its events stays running or cancelling
 * with `recordingFailure` set until its engine is gone, then ends failed; so does one whose engine
 * stopped responding, with `stopFailure`.
 */
import type { AppError } from '../../../shared/errors';
import type { EngineHandle } from '../../host';
import type { RunStatusFile } from '../store';

/** the engine is being started, or is running, or has been asked to stop */
interface EnginePhase {
  /** set as soon as the engine is spawned */
  engine?: EngineHandle;
  /** the engine process has exited (its end may not be handled yet) */
  engineGone: boolean;
  /** events.ndjson could not be written: the run is being stopped and ends failed */
  recordingFailure?: AppError;
  /** the engine stopped responding (engineWatchdog.ts): it is being killed and the run ends failed */
  stopFailure?: AppError;
}

export type RunPhase =
  | { phase: 'queued' }
  | ({ phase: 'running' } & EnginePhase)
  | ({ phase: 'cancelling' } & EnginePhase)
  | {
    phase: 'ended';
    /** the engine it ran, if it ever started one */
    engine?: EngineHandle;
    /** events.ndjson holds every record the run made (no write failed) */
    recordedEverything: boolean;
    /** the final status, while a full or read-only runs folder has not taken it */
    unsavedFinal?: RunStatusFile;
  };

export type EngineRunPhase = Extract<RunPhase, { phase: 'running' | 'cancelling' }>;

export function hasEngine(phase: RunPhase): phase is EngineRunPhase {
  return phase.phase === 'running' || phase.phase === 'cancelling';
}
