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
  /** any message from the engine (a heartbeat, progress, a trace batch …): it is alive and not hung */
  onAlive?(): void;
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

/** A spawn that threw: a run that failed before it began, with the reason. */
function neverStarted(e: unknown): EngineHandle {
  const error = new AppError('RUN_FAILED', `could not start the engine process: ${serializeError(e).message}`);
  const done = Promise.resolve<EngineEnd>({ kind: 'failed', error: error.toJSON() });
  return { pid: undefined, done, cancel: () => done, openSpans: () => [] };
}

/** The service's span around the process, open from the spawn on (same clock: the run's origin). */
function engineProcessSpan(originNs: string): OpenSpan[] {
  if (!/^\d+$/.test(originNs)) return [];
  const spawnedUs = Number(process.hrtime.bigint() - BigInt(originNs)) / 1000;
  return [{ proc: 'service', tid: 1, name: ENGINE_PROCESS_SPAN, startUs: spawnedUs }];
}

/** One engine process through one run: what it said, and how it ended. */
class RunningEngine implements EngineHandle {
  readonly done: Promise<EngineEnd>;
  private resolveDone!: (end: EngineEnd) => void;
  private outcome: EngineOutcome | undefined;
  /** what the engine measured so far (after each strategy), for a run that does not complete */
  private partial: EngineOutcome | undefined;
  private engineError: SerializedError | undefined;
  private cancelRequested = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;
  // the service's span around the process is written when the process ends; until then the live
  // timeline learns of it from here
  private hostOpen: OpenSpan[];
  private engineOpen: OpenSpan[] = [];

  constructor(private readonly child: EngineChild, start: StartMessage, private readonly listeners: EngineListeners) {
    this.done = new Promise<EngineEnd>((resolve) => {
      this.resolveDone = resolve;
    });
    this.hostOpen = engineProcessSpan(start.originNs);
    child.onMessage((raw) => this.onMessage(raw));
    child.onExit((exit) => this.onExit(exit));
    child.send(start);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  openSpans(): OpenSpan[] {
    return [...this.hostOpen, ...this.engineOpen];
  }

  cancel(): Promise<EngineEnd> {
    if (!this.cancelRequested) {
      this.cancelRequested = true;
      try {
        this.child.send({ type: 'cancel' });
      } catch {
        // the channel may already be closed; the kill below still ends the process
      }
      this.killTimer = setTimeout(() => this.child.kill(), CANCEL_GRACE_MS);
    }
    return this.done;
  }

  private onMessage(raw: unknown): void {
    if (!isEngineMessage(raw)) return;
    this.listeners.onAlive?.();
    switch (raw.type) {
      case 'open-spans':
        if (isOpenSpanList(raw.spans)) this.engineOpen = raw.spans;
        break;
      case 'trace':
        this.listeners.onTrace(raw.records);
        break;
      case 'progress':
        this.listeners.onProgress(raw.progress);
        break;
      case 'log':
        this.listeners.onLog(raw.level, raw.message);
        break;
      case 'result':
        this.outcome = raw.outcome;
        break;
      case 'partial':
        this.partial = raw.outcome;
        break;
      case 'error':
        this.engineError = deserializeError(raw.error).toJSON();
        break;
      case 'cancelled':
        this.cancelRequested = true;
        break;
    }
  }

  private onExit(exit: EngineExit): void {
    if (this.killTimer) clearTimeout(this.killTimer);
    this.hostOpen = [];
    this.engineOpen = [];
    this.resolveDone(this.endOf(exit));
  }

  /** Every way the process can end, as one outcome: a cancel, the engine's error, a result, or a death. */
  private endOf(exit: EngineExit): EngineEnd {
    const { outcome } = this;
    // a run that did not complete keeps what it measured: its final outcome, else the last partial one
    const kept = outcome ?? this.partial;
    if (this.cancelRequested) return { kind: 'cancelled', outcome: kept };
    if (this.engineError) return { kind: 'failed', error: this.engineError, outcome: kept };
    if (outcome && exit.code === 0) return { kind: 'completed', outcome };
    const reason = describeEngineExit(exit, this.child.stderrTail());
    return { kind: 'failed', error: new AppError('RUN_FAILED', reason).toJSON(), outcome: kept };
  }
}

export function startEngine(spawn: SpawnEngine, start: StartMessage, listeners: EngineListeners): EngineHandle {
  let child: EngineChild;
  try {
    child = spawn();
  } catch (e) {
    return neverStarted(e);
  }
  return new RunningEngine(child, start, listeners);
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
