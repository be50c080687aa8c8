/**
 * What a run records and streams. Trace records are already shaped like Chrome Trace Event
 * objects (shared/spec/trace-format.md §6) minus the pid, which the exporter assigns per process;
 * timestamps are microseconds from the run's start on one monotonic clock.
 */
import type { SerializedError } from './errors';
import type { ProgressInfo } from './progress';
import type { CounterDelta, LaneChange } from './timelineView';

/** `external`: the external engines a run starts (docs/external-engines.md), a thread lane each */
export type ProcessRole = 'service' | 'engine' | 'external';

/** said with its reading in progress.ts; part of the events a run streams */
export type { ProgressBasis, ProgressCount, ProgressInfo } from './progress';

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

/**
 * A span begun and not yet ended. The trace holds complete spans only (each is written when it
 * ends); the recorder that opened it answers what is open now, for a live timeline to draw.
 */
export interface OpenSpan {
  proc: ProcessRole;
  tid: number;
  name: string;
  /** µs on the run clock */
  startUs: number;
  args?: Record<string, unknown>;
}

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * What a page hears of a live run's trace: not its records (those stay with the service, which
 * answers the views) but what changed since the previous notice: the counter points recorded, the
 * lanes and time ranges whose spans changed, and how far the trace reaches now.
 */
export interface TimelineNotice {
  type: 'timeline';
  runId: string;
  /** the newest time the run's trace reached, µs from the run's start */
  latestUs: number;
  changed: LaneChange[];
  /** the lanes a view lists (or their names) changed: every window's answer did */
  lanesChanged: boolean;
  counters: CounterDelta[];
}

export type RunEvent =
  | TimelineNotice
  | { type: 'progress'; runId: string; progress: ProgressInfo }
  | { type: 'status'; runId: string; status: RunStatus; error?: SerializedError }
  | ({ type: 'log'; runId: string } & RunLogLine);

export type LogLevel = 'info' | 'warn' | 'error';

/**
 * One line of a run's log. `seq` is its place in the run's log, from 0: a page that joins late
 * takes the lines the service kept and the lines it hears since, each once, in order.
 */
export interface RunLogLine {
  seq: number;
  level: LogLevel;
  message: string;
}

/** the most log lines a run's live state keeps (the newest ones), and a page shows */
export const MAX_KEPT_LOG_LINES = 200;

/** Most lane changes one notice carries; a service with more to say sends several. */
export const MAX_NOTICE_LANES = 1_024;
/** Most counter points one notice carries, all series together. */
export const MAX_NOTICE_POINTS = 20_000;
const MAX_TEXT = 10_000;
const RUN_STATUSES: ReadonlySet<string> = new Set(['queued', 'running', 'completed', 'failed', 'cancelled']);
const PROCESS_ROLES: ReadonlySet<string> = new Set(['service', 'engine', 'external']);
const LOG_LEVELS: ReadonlySet<string> = new Set(['info', 'warn', 'error']);

const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isLaneChange(v: unknown): v is LaneChange {
  if (!isObject(v) || !isObject(v.lane) || !isFiniteNumber(v.startUs) || !isFiniteNumber(v.endUs)) return false;
  return PROCESS_ROLES.has(v.lane.process as string) && Number.isSafeInteger(v.lane.thread);
}

/** a notice's counters, and how many points they hold, or -1 when they are not counters */
function counterPoints(v: unknown): number {
  if (!Array.isArray(v)) return -1;
  let points = 0;
  for (const d of v) {
    if (!isObject(d) || !PROCESS_ROLES.has(d.proc as string) || !isText(d.name, 1_000) || !isText(d.key, 1_000) || !Array.isArray(d.points)) return -1;
    for (const p of d.points) if (!Array.isArray(p) || p.length !== 2 || !isFiniteNumber(p[0]) || !isFiniteNumber(p[1])) return -1;
    points += d.points.length;
  }
  return points;
}

function isNotice(m: Record<string, unknown>): boolean {
  if (!isFiniteNumber(m.latestUs) || typeof m.lanesChanged !== 'boolean' || !Array.isArray(m.changed) || m.changed.length > MAX_NOTICE_LANES || !m.changed.every(isLaneChange)) return false;
  const points = counterPoints(m.counters);
  return points >= 0 && points <= MAX_NOTICE_POINTS;
}

function isProgressCount(v: unknown): boolean {
  return isObject(v) && isFiniteNumber(v.done) && isFiniteNumber(v.total) && isText(v.unit, 100);
}

function isProgress(v: unknown): boolean {
  if (!isObject(v) || !isFiniteNumber(v.fraction) || !isText(v.label) || !isFiniteNumber(v.elapsedMs)) return false;
  if (v.etaMs !== undefined && !isFiniteNumber(v.etaMs)) return false;
  return (v.basis === undefined || v.basis === 'time' || v.basis === 'count') && (v.count === undefined || isProgressCount(v.count));
}

export function isRunLogLine(v: unknown): v is RunLogLine {
  return isObject(v) && Number.isSafeInteger(v.seq) && (v.seq as number) >= 0 && LOG_LEVELS.has(v.level as string) && isText(v.message, 1_000_000);
}

/** A kept log as a file or an answer holds it: its lines that are log lines, at most the newest MAX_KEPT_LOG_LINES, in order. */
export function readRunLog(v: unknown): RunLogLine[] {
  if (!Array.isArray(v)) return [];
  const lines = v.filter(isRunLogLine).map(({ seq, level, message }) => ({ seq, level, message }));
  return lines.sort((a, b) => a.seq - b.seq).slice(-MAX_KEPT_LOG_LINES);
}

/** Two parts of one run's log as one: each line once (by seq), in order, the newest MAX_KEPT_LOG_LINES. */
export function mergeRunLogs(a: readonly RunLogLine[], b: readonly RunLogLine[]): RunLogLine[] {
  const bySeq = new Map<number, RunLogLine>();
  for (const line of [...a, ...b]) bySeq.set(line.seq, line);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq).slice(-MAX_KEPT_LOG_LINES);
}

/**
 * A run event as a page receives it, checked where it crosses into the page (the WebSocket, the
 * preload): its shape, and a notice's size within the bounds the service keeps to. Null for
 * anything else.
 */
export function readRunEvent(v: unknown): RunEvent | null {
  if (!isObject(v) || !isText(v.runId, 100)) return null;
  switch (v.type) {
    case 'timeline':
      return isNotice(v) ? (v as unknown as RunEvent) : null;
    case 'progress':
      return isProgress(v.progress) ? (v as unknown as RunEvent) : null;
    case 'status':
      return RUN_STATUSES.has(v.status as string) && (v.error === undefined || isObject(v.error)) ? (v as unknown as RunEvent) : null;
    case 'log':
      return isRunLogLine(v) ? (v as unknown as RunEvent) : null;
    default:
      return null;
  }
}
