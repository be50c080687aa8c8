/**
 * Turns recorded trace records into Chrome Trace Events that follow the export profile
 * (shared/spec/trace-format.md §6): integer pids per process and positive tids, times rounded to
 * integer ns and shifted to ≥ 0, spans sorted per thread in Perfetto's order with every child
 * ending inside its parent (rounding or a span that outlived its parent would otherwise be a
 * partial overlap, which viewers drop), counters with one key set per name.
 *
 * Records are grouped first (every span of a thread is needed before nesting can be checked);
 * events are then produced one at a time so the writer can stream them.
 */
import type { CounterRecord, InstantRecord, ProcessRole, SpanRecord, TraceRecord } from '../../shared/events';
import { isTraceRecord } from './traceRecords';

export const PROCESS_IDS: Record<ProcessRole, number> = { service: 1, engine: 2, external: 3 };
export const PROCESS_NAMES: Record<ProcessRole, string> = {
  service: 'kde-profiler service',
  engine: 'kde-profiler engine',
  external: 'external engines',
};
const ROLES_IN_ORDER: ProcessRole[] = ['service', 'engine', 'external'];
const MAIN_TID = 1;
const MAX_TID = 2 ** 31 - 1;

export interface ChromeEvent {
  ph: 'X' | 'C' | 'I' | 'M';
  name: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: 't' | 'p' | 'g';
  args?: Record<string, unknown>;
}

export interface TraceStats {
  spans: number;
  counters: number;
  instants: number;
  /** spans whose end was moved back to their parent's end */
  clampedSpans: number;
  /** records that were not valid trace records, or spans with negative duration */
  droppedRecords: number;
  /** records whose tid was not a positive integer, written on the main lane */
  remappedTids: number;
  /** added to every timestamp so that none is negative */
  shiftUs: number;
}

export interface NormalizedTrace {
  metadata: ChromeEvent[];
  /** yields spans (per thread, in Perfetto's order), then counters and instants (by time) */
  events(): Generator<ChromeEvent>;
  stats: TraceStats;
}

interface ThreadSpans {
  proc: ProcessRole;
  tid: number;
  recs: SpanRecord[];
  startNs: number[];
  endNs: number[];
}

function toNs(us: number): number {
  return Math.round(us * 1000);
}

function validTid(tid: number): boolean {
  return Number.isInteger(tid) && tid > 0 && tid <= MAX_TID;
}

/** Sorts one thread's spans (start asc, longer first, then file order) and clamps children into parents. */
function nestThread(t: ThreadSpans): { order: number[]; clamped: number } {
  const order = t.recs.map((_, i) => i);
  const { startNs: s, endNs: e } = t;
  order.sort((a, b) => (s[a]! - s[b]!) || (e[b]! - e[a]!) || (a - b));
  const openEnds: number[] = [];
  let clamped = 0;
  for (const i of order) {
    const start = s[i]!;
    while (openEnds.length > 0 && openEnds[openEnds.length - 1]! <= start) openEnds.pop();
    const parentEnd = openEnds[openEnds.length - 1];
    if (parentEnd !== undefined && e[i]! > parentEnd) {
      e[i] = parentEnd;
      clamped++;
    }
    openEnds.push(e[i]!);
  }
  return { order, clamped };
}

/** Numeric series only, the same keys every time: a missing key repeats its last value (0 before any). */
function counterArgs(rec: CounterRecord, keys: string[], last: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) {
    const v = rec.args[k];
    const value = typeof v === 'number' && Number.isFinite(v) ? v : (last.get(k) ?? 0);
    last.set(k, value);
    out[k] = value;
  }
  return out;
}

const threadKey = (proc: ProcessRole, tid: number): string => `${proc}|${tid}`;
const counterKey = (rec: CounterRecord): string => `${rec.proc}|${rec.name}`;

/**
 * One pass over the records: spans grouped per thread, thread names, counters with the numeric
 * keys each name ever carried, instants, and the earliest time.
 */
class RecordGroups {
  readonly threads = new Map<string, ThreadSpans>();
  readonly threadNames = new Map<string, string>();
  readonly counters: CounterRecord[] = [];
  readonly counterKeys = new Map<string, Set<string>>();
  readonly instants: InstantRecord[] = [];
  readonly procsSeen = new Set<ProcessRole>();
  minNs = 0;
  private readonly explicitNames = new Map<string, string>();

  constructor(private readonly stats: TraceStats) {}

  add(rec: TraceRecord): void {
    if (!isTraceRecord(rec)) {
      this.stats.droppedRecords++;
    } else if (rec.ph === 'M') {
      this.explicitNames.set(this.noteThread(rec.proc, this.tidOf(rec.tid)), rec.args.name);
    } else if (rec.ph === 'X') {
      this.addSpan(rec);
    } else if (rec.ph === 'C') {
      this.addCounter(rec);
    } else {
      this.noteThread(rec.proc, this.tidOf(rec.tid));
      this.instants.push(rec);
      this.minNs = Math.min(this.minNs, toNs(rec.ts));
    }
  }

  /** Named threads keep their names over the defaults; an empty trace still has the service's main thread. */
  finish(): void {
    for (const [key, name] of this.explicitNames) this.threadNames.set(key, name);
    if (this.procsSeen.size === 0) this.noteThread('service', MAIN_TID);
  }

  private addSpan(rec: SpanRecord): void {
    const start = toNs(rec.ts);
    const durNs = toNs(rec.dur);
    if (durNs < 0) {
      this.stats.droppedRecords++;
      return;
    }
    const tid = this.tidOf(rec.tid);
    const key = this.noteThread(rec.proc, tid);
    let t = this.threads.get(key);
    if (!t) this.threads.set(key, (t = { proc: rec.proc, tid, recs: [], startNs: [], endNs: [] }));
    t.recs.push(rec);
    t.startNs.push(start);
    t.endNs.push(start + durNs);
    if (start < this.minNs) this.minNs = start;
  }

  private addCounter(rec: CounterRecord): void {
    this.noteThread(rec.proc, MAIN_TID);
    const key = counterKey(rec);
    let keys = this.counterKeys.get(key);
    if (!keys) this.counterKeys.set(key, (keys = new Set()));
    for (const [k, v] of Object.entries(rec.args)) if (typeof v === 'number') keys.add(k);
    this.counters.push(rec);
    this.minNs = Math.min(this.minNs, toNs(rec.ts));
  }

  private tidOf(tid: number): number {
    if (validTid(tid)) return tid;
    this.stats.remappedTids++;
    return MAIN_TID;
  }

  private noteThread(proc: ProcessRole, tid: number): string {
    this.procsSeen.add(proc);
    const key = threadKey(proc, tid);
    if (!this.threadNames.has(key)) this.threadNames.set(key, tid === MAIN_TID ? 'main' : `lane ${tid}`);
    return key;
  }
}

/** Process and thread names and sort indices, processes in role order and threads by tid. */
function metadataEvents(procsSeen: ReadonlySet<ProcessRole>, threadNames: ReadonlyMap<string, string>): ChromeEvent[] {
  const metadata: ChromeEvent[] = [];
  for (const proc of ROLES_IN_ORDER) {
    if (!procsSeen.has(proc)) continue;
    const pid = PROCESS_IDS[proc];
    metadata.push({ ph: 'M', name: 'process_name', pid, tid: MAIN_TID, ts: 0, args: { name: PROCESS_NAMES[proc] } });
    metadata.push({ ph: 'M', name: 'process_sort_index', pid, tid: MAIN_TID, ts: 0, args: { sort_index: pid } });
    const tids = [...threadNames.keys()]
      .filter((k) => k.startsWith(`${proc}|`))
      .map((k) => Number(k.slice(proc.length + 1)))
      .sort((a, b) => a - b);
    for (const tid of tids) {
      const name = threadNames.get(threadKey(proc, tid))!;
      metadata.push({ ph: 'M', name: 'thread_name', pid, tid, ts: 0, args: { name } });
      metadata.push({ ph: 'M', name: 'thread_sort_index', pid, tid, ts: 0, args: { sort_index: tid } });
    }
  }
  return metadata;
}

interface NestedThread {
  t: ThreadSpans;
  order: number[];
}

type OutTs = (ns: number) => number;

function* spanEvents(nested: readonly NestedThread[], outTs: OutTs): Generator<ChromeEvent> {
  for (const { t, order } of nested) {
    const pid = PROCESS_IDS[t.proc];
    for (const i of order) {
      const rec = t.recs[i]!;
      const start = t.startNs[i]!;
      const ev: ChromeEvent = {
        ph: 'X', name: rec.name, cat: rec.cat || t.proc, pid, tid: t.tid,
        ts: outTs(start), dur: (t.endNs[i]! - start) / 1000,
      };
      if (rec.args !== undefined) ev.args = rec.args;
      yield ev;
    }
  }
}

function* counterEvents(counters: readonly CounterRecord[], counterKeys: ReadonlyMap<string, Set<string>>, outTs: OutTs): Generator<ChromeEvent> {
  const lastValues = new Map<string, Map<string, number>>();
  const keyLists = new Map<string, string[]>();
  for (const [key, set] of counterKeys) keyLists.set(key, [...set]);
  for (const rec of counters) {
    const key = counterKey(rec);
    const keys = keyLists.get(key)!;
    let last = lastValues.get(key);
    if (!last) lastValues.set(key, (last = new Map<string, number>()));
    yield {
      ph: 'C', name: rec.name, pid: PROCESS_IDS[rec.proc], tid: MAIN_TID, ts: outTs(toNs(rec.ts)),
      args: counterArgs(rec, keys, last),
    };
  }
}

function* instantEvents(instants: readonly InstantRecord[], outTs: OutTs): Generator<ChromeEvent> {
  for (const rec of instants) {
    const ev: ChromeEvent = {
      ph: 'I', name: rec.name, cat: rec.cat || rec.proc, pid: PROCESS_IDS[rec.proc],
      tid: validTid(rec.tid) ? rec.tid : MAIN_TID,
      ts: outTs(toNs(rec.ts)), s: rec.s ?? 't',
    };
    if (rec.args !== undefined) ev.args = rec.args;
    yield ev;
  }
}

export function normalizeTrace(records: Iterable<TraceRecord>): NormalizedTrace {
  const stats: TraceStats = {
    spans: 0, counters: 0, instants: 0, clampedSpans: 0, droppedRecords: 0, remappedTids: 0, shiftUs: 0,
  };
  const groups = new RecordGroups(stats);
  for (const rec of records) groups.add(rec);
  groups.finish();
  const shiftNs = -groups.minNs;
  stats.shiftUs = shiftNs / 1000;
  const metadata = metadataEvents(groups.procsSeen, groups.threadNames);

  const nested = [...groups.threads.values()].map((t) => {
    const { order, clamped } = nestThread(t);
    stats.clampedSpans += clamped;
    stats.spans += order.length;
    return { t, order };
  });
  // a counter name that never carried a number has nothing to plot
  const counters = groups.counters.filter((rec) => groups.counterKeys.get(counterKey(rec))!.size > 0);
  stats.droppedRecords += groups.counters.length - counters.length;
  counters.sort((a, b) => a.ts - b.ts);
  groups.instants.sort((a, b) => a.ts - b.ts);
  stats.counters = counters.length;
  stats.instants = groups.instants.length;
  const outTs: OutTs = (ns) => (ns + shiftNs) / 1000;

  function* events(): Generator<ChromeEvent> {
    yield* spanEvents(nested, outTs);
    yield* counterEvents(counters, groups.counterKeys, outTs);
    yield* instantEvents(groups.instants, outTs);
  }
  return { metadata, events, stats };
}
