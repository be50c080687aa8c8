/**
 * What a run records and streams. Trace records are already shaped like Chrome Trace Event
 * objects (shared/spec/trace-format.md §6) minus the pid, which the exporter assigns per process;
 * timestamps are microseconds from the run's start on one monotonic clock.
 */
import type { SerializedError } from './errors';

/** `external`: the external engines a run starts (docs/external-engines.md), a thread lane each */
export type ProcessRole = 'service' | 'engine' | 'external';

export interface SpanRecord {
  ph: 'X';
  proc: ProcessRole;
  tid: number;
  name: string;
  cat: string;
  ts: number;
  dur: number;
  args?: Record<string, unknown>;
}

export interface CounterRecord {
  ph: 'C';
  proc: ProcessRole;
  name: string;
  ts: number;
  /** one series per key; the key set of a counter name never changes */
  args: Record<string, number>;
}

export interface InstantRecord {
  ph: 'I';
  proc: ProcessRole;
  tid: number;
  name: string;
  cat: string;
  ts: number;
  s: 't' | 'p' | 'g';
  args?: Record<string, unknown>;
}

export interface ThreadNameRecord {
  ph: 'M';
  proc: ProcessRole;
  tid: number;
  name: 'thread_name';
  args: { name: string };
}

export type TraceRecord = SpanRecord | CounterRecord | InstantRecord | ThreadNameRecord;

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ProgressInfo {
  /** 0..1 over the whole run */
  fraction: number;
  /** what is happening now, e.g. "compensated · decode · repeat 2/3 · electrode 5/16" */
  label: string;
  /** estimated time left, when it can be told honestly */
  etaMs?: number;
  elapsedMs: number;
}

export type RunEvent =
  | { type: 'trace'; runId: string; records: TraceRecord[] }
  | { type: 'progress'; runId: string; progress: ProgressInfo }
  | { type: 'status'; runId: string; status: RunStatus; error?: SerializedError }
  | { type: 'log'; runId: string; level: 'info' | 'warn' | 'error'; message: string };
