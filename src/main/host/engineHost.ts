/**
 * Drives one engine process through one run: sends the start message, hands the engine's messages
 * on, cancels (cancel message, then SIGKILL after a grace period so a cancel lands within a second
 * even while wasm compute holds the engine's event loop), and turns every way the process can end
 * into one outcome with a reason a person can read.
 */
import { AppError, deserializeError, serializeError, type SerializedError } from '../../shared/errors';
import type { ProgressInfo, TraceRecord } from '../../shared/events';
import type { EngineChild, EngineExit, SpawnEngine } from './engineChild';
import {
  ENGINE_PROCESS_SPAN, isEngineMessage, isOpenSpanList, type EngineOutcome, type OpenSpan, type ProbeResult, type StartMessage,
} from '../engineProtocol';

export const CANCEL_GRACE_MS = 500;

export interface EngineListeners {
  onTrace(records: TraceRecord[]): void;
  onProgress(progress: ProgressInfo): void;
  onLog(level: 'info' | 'warn' | 'error', message: string): void;
}

export type EngineEnd =
  | { kind: 'completed'; outcome: EngineOutcome }
  | { kind: 'cancelled'; outcome?: EngineOutcome }
  | { kind: 'failed'; error: SerializedError; outcome?: EngineOutcome };

export interface EngineHandle {
  readonly pid: number | undefined;
  /** resolves once the process is gone and every message it sent has been delivered */
  readonly done: Promise<EngineEnd>;
  /** asks the engine to stop; kills it if it has not exited within CANCEL_GRACE_MS */
  cancel(): Promise<EngineEnd>;
  /** the spans open now (the service's span around the process, then the engine's); empty once it is gone */
  openSpans(): OpenSpan[];
}

/** A human reason for an engine process that ended without a result. */
export function describeEngineExit(exit: EngineExit, stderrTail: string): string {
  if (/out of memory|Allocation failed|Cannot allocate memory/i.test(stderrTail) || /\bOOM\b/.test(stderrTail)) {
    return 'out of memory: the engine process ran out of memory; try a strategy with a smaller peak ' +
      '(chunked or streaming), a smaller block size, or a smaller dataset';
  }
  if (exit.signal === 'SIGKILL') {
    return 'the engine process was killed (SIGKILL), possibly by the system when memory ran out';
  }
  if (exit.signal) return `the engine process was terminated by signal ${exit.signal}`;
  if (exit.code === -1) return `the engine process could not be started${lastLine(stderrTail)}`;
  return `the engine process exited unexpectedly with code ${String(exit.code)}${lastLine(stderrTail)}`;
}

/** The line of stderr that says what went wrong: the last error line, else the last line (Node's version banner aside). */
function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0 && !/^Node\.js v\d/.test(l));
  const errors = lines.filter((l) => /^(\w*Error|FATAL|Uncaught)\b/.test(l));
  const line = errors[errors.length - 1] ?? lines[lines.length - 1];
  return line ? `: ${line.slice(0, 300)}` : '';
}

export function startEngine(spawn: SpawnEngine, start: StartMessage, listeners: EngineListeners): EngineHandle {
  let child: EngineChild;
  try {
    child = spawn();
  } catch (e) {
    const error = new AppError('RUN_FAILED', `could not start the engine process: ${serializeError(e).message}`);
    const done = Promise.resolve<EngineEnd>({ kind: 'failed', error: error.toJSON() });
    return { pid: undefined, done, cancel: () => done, openSpans: () => [] };
  }
  let outcome: EngineOutcome | undefined;
  let engineError: SerializedError | undefined;
  let cancelRequested = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let resolveDone!: (end: EngineEnd) => void;
  const done = new Promise<EngineEnd>((resolve) => {
    resolveDone = resolve;
  });

  // the service's span around the process is written when the process ends; until then the live
  // timeline learns of it from here (same clock: the run's origin)
  let hostOpen: OpenSpan[] = [];
  let engineOpen: OpenSpan[] = [];
  if (/^\d+$/.test(start.originNs)) {
    const spawnedUs = Number(process.hrtime.bigint() - BigInt(start.originNs)) / 1000;
    hostOpen = [{ proc: 'service', tid: 1, name: ENGINE_PROCESS_SPAN, startUs: spawnedUs }];
  }

  child.onMessage((raw) => {
    if (!isEngineMessage(raw)) return;
    switch (raw.type) {
      case 'open-spans':
        if (isOpenSpanList(raw.spans)) engineOpen = raw.spans;
        break;
      case 'trace':
        listeners.onTrace(raw.records);
        break;
      case 'progress':
        listeners.onProgress(raw.progress);
        break;
      case 'log':
        listeners.onLog(raw.level, raw.message);
        break;
      case 'result':
        outcome = raw.outcome;
        break;
      case 'error':
        engineError = deserializeError(raw.error).toJSON();
        break;
      case 'cancelled':
        cancelRequested = true;
        break;
    }
  });

  child.onExit((exit) => {
    if (killTimer) clearTimeout(killTimer);
    hostOpen = [];
    engineOpen = [];
    if (cancelRequested) resolveDone({ kind: 'cancelled', outcome });
    else if (engineError) resolveDone({ kind: 'failed', error: engineError, outcome });
    else if (outcome && exit.code === 0) resolveDone({ kind: 'completed', outcome });
    else {
      const reason = describeEngineExit(exit, child.stderrTail());
      resolveDone({ kind: 'failed', error: new AppError('RUN_FAILED', reason).toJSON(), outcome });
    }
  });

  child.send(start);

  return {
    get pid() {
      return child.pid;
    },
    done,
    openSpans: () => [...hostOpen, ...engineOpen],
    cancel() {
      if (!cancelRequested) {
        cancelRequested = true;
        try {
          child.send({ type: 'cancel' });
        } catch {
          // the channel may already be closed; the kill below still ends the process
        }
        killTimer = setTimeout(() => child.kill(), CANCEL_GRACE_MS);
      }
      return done;
    },
  };
}

export const PROBE_TIMEOUT_MS = 30_000;

/**
 * Asks a fresh engine process which backends it can use, so the service's own process (Electron's
 * main process in the desktop app) never loads TensorFlow.js or a GPU driver.
 */
export function probeEngine(spawn: SpawnEngine, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    let child: EngineChild;
    try {
      child = spawn();
    } catch (e) {
      reject(new AppError('BACKEND_UNAVAILABLE', `could not start the engine process: ${serializeError(e).message}`));
      return;
    }
    let result: ProbeResult | undefined;
    let error: SerializedError | undefined;
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.onMessage((raw) => {
      if (!isEngineMessage(raw)) return;
      if (raw.type === 'probe-result') result = raw.probe;
      else if (raw.type === 'error') error = raw.error;
    });
    child.onExit((exit) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else if (error) reject(deserializeError(error));
      else reject(new AppError('BACKEND_UNAVAILABLE', `probing the backends failed: ${describeEngineExit(exit, child.stderrTail())}`));
    });
    child.send({ type: 'probe' });
  });
}
