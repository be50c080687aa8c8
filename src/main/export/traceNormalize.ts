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

export const PROCESS_IDS: Record<ProcessRole, number> = { service: 1, engine: 2 };
export const PROCESS_NAMES: Record<ProcessRole, string> = {
  service: 'kde-profiler service',
  engine: 'kde-profiler engine',
};
const ROLES_IN_ORDER: ProcessRole[] = ['service', 'engine'];
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

export function normalizeTrace(records: Iterable<TraceRecord>): NormalizedTrace {
  const threads = new Map<string, ThreadSpans>();
  const threadNames = new Map<string, string>();
  const counters: CounterRecord[] = [];
  const counterKeys = new Map<string, Set<string>>();
  const instants: InstantRecord[] = [];
  const procsSeen = new Set<ProcessRole>();
  const stats: TraceStats = {
    spans: 0, counters: 0, instants: 0, clampedSpans: 0, droppedRecords: 0, remappedTids: 0, shiftUs: 0,
  };
  let minNs = 0;

  const tidOf = (tid: number): number => {
    if (validTid(tid)) return tid;
    stats.remappedTids++;
    return MAIN_TID;
  };
  const noteThread = (proc: ProcessRole, tid: number): string => {
    procsSeen.add(proc);
    const key = `${proc}|${tid}`;
    if (!threadNames.has(key)) threadNames.set(key, tid === MAIN_TID ? 'main' : `lane ${tid}`);
    return key;
  };
  const explicitNames = new Map<string, string>();

  for (const rec of records) {
    if (!isTraceRecord(rec)) {
      stats.droppedRecords++;
      continue;
    }
    if (rec.ph === 'M') {
      const key = noteThread(rec.proc, tidOf(rec.tid));
      explicitNames.set(key, rec.args.name);
    } else if (rec.ph === 'X') {
      const start = toNs(rec.ts);
      const durNs = toNs(rec.dur);
      if (durNs < 0) {
        stats.droppedRecords++;
        continue;
      }
      const tid = tidOf(rec.tid);
      const key = noteThread(rec.proc, tid);
      let t = threads.get(key);
      if (!t) {
        t = { proc: rec.proc, tid, recs: [], startNs: [], endNs: [] };
        threads.set(key, t);
      }
      t.recs.push(rec);
      t.startNs.push(start);
      t.endNs.push(start + durNs);
      if (start < minNs) minNs = start;
    } else if (rec.ph === 'C') {
      noteThread(rec.proc, MAIN_TID);
      const key = `${rec.proc}|${rec.name}`;
      let keys = counterKeys.get(key);
      if (!keys) counterKeys.set(key, (keys = new Set()));
      for (const [k, v] of Object.entries(rec.args)) if (typeof v === 'number') keys.add(k);
      counters.push(rec);
      minNs = Math.min(minNs, toNs(rec.ts));
    } else {
      noteThread(rec.proc, tidOf(rec.tid));
      instants.push(rec);
      minNs = Math.min(minNs, toNs(rec.ts));
    }
  }
  for (const [key, name] of explicitNames) threadNames.set(key, name);

  const shiftNs = -minNs;
  stats.shiftUs = shiftNs / 1000;
  if (procsSeen.size === 0) noteThread('service', MAIN_TID);

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
      const name = threadNames.get(`${proc}|${tid}`)!;
      metadata.push({ ph: 'M', name: 'thread_name', pid, tid, ts: 0, args: { name } });
      metadata.push({ ph: 'M', name: 'thread_sort_index', pid, tid, ts: 0, args: { sort_index: tid } });
    }
  }

  const nested = [...threads.values()].map((t) => {
    const { order, clamped } = nestThread(t);
    stats.clampedSpans += clamped;
    stats.spans += order.length;
    return { t, order };
  });
  const writtenCounters = counters.filter((rec) => counterKeys.get(`${rec.proc}|${rec.name}`)!.size > 0);
  stats.droppedRecords += counters.length - writtenCounters.length;
  writtenCounters.sort((a, b) => a.ts - b.ts);
  instants.sort((a, b) => a.ts - b.ts);
  stats.counters = writtenCounters.length;
  stats.instants = instants.length;
  const outTs = (ns: number): number => (ns + shiftNs) / 1000;

  function* events(): Generator<ChromeEvent> {
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
    const lastValues = new Map<string, Map<string, number>>();
    const keyLists = new Map<string, string[]>();
    for (const [key, set] of counterKeys) keyLists.set(key, [...set]);
    for (const rec of writtenCounters) {
      const key = `${rec.proc}|${rec.name}`;
      const keys = keyLists.get(key)!;
      let last = lastValues.get(key);
      if (!last) lastValues.set(key, (last = new Map()));
      yield {
        ph: 'C', name: rec.name, pid: PROCESS_IDS[rec.proc], tid: MAIN_TID, ts: outTs(toNs(rec.ts)),
        args: counterArgs(rec, keys, last),
      };
    }
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

  return { metadata, events, stats };
}
