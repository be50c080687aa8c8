/**
 * An in-memory index of a run's spans for the timeline: per lane (process, thread) and nesting
 * depth, spans sorted by start in flat typed arrays, built once from the records. Queries
 * (timelineQuery.ts) binary-search the window instead of scanning every record.
 *
 * Lanes per process and electrode: what runs inside an "electrode N" span (the stages of one
 * electrode's fit or decode) goes on a lane of its own, "engine · electrode N"; the loop's spans
 * (run, strategy, repeat, encode, decode) and the electrode spans themselves stay on the process
 * lane. A live run's open spans (begun, not yet ended, so not in the trace) are drawn from their
 * start to the newest event and marked `inProgress`.
 */
import type { TimelineLane } from '../../shared/api';
import type { TraceRecord } from '../../shared/events';

export interface DepthRow {
  depth: number;
  start: Float64Array;
  dur: Float64Array;
  /** running maximum of start + dur, monotone, so the first span ending after t is a binary search */
  maxEnd: Float64Array;
  name: Int32Array;
  cat: Int32Array;
  /** record args by position; undefined for spans without */
  args: (Record<string, unknown> | undefined)[];
}

export interface LaneIndex {
  lane: TimelineLane;
  rows: DepthRow[];
}

export interface TimelineIndex {
  lanes: LaneIndex[];
  strings: string[];
  instants: { lane: string; name: string; tsUs: number }[];
  startUs: number;
  endUs: number;
  totalEvents: number;
}

interface RawSpan {
  start: number;
  dur: number;
  name: number;
  cat: number;
  args: Record<string, unknown> | undefined;
}

/** a span a live run has begun and not ended (host/openSpans.ts), on the run clock */
export interface OpenSpanInput {
  proc: string;
  tid: number;
  name: string;
  startUs: number;
  args?: Record<string, unknown>;
}

export interface TimelineIndexOptions {
  open?: readonly OpenSpanInput[];
}

/** the arg that marks a box drawn for a span still open */
export const IN_PROGRESS_ARG = 'inProgress';
/** an open span and the complete one the trace later holds start this close (µs) */
const SAME_SPAN_US = 5_000;
const ELECTRODE_SPAN = /^electrode (\d+)$/;

function laneId(proc: string, tid: number): string {
  return `${proc}:${tid}`;
}

function electrodeLaneId(lane: string, electrode: number): string {
  return `${lane}/electrode ${electrode}`;
}

/**
 * Splits one lane's spans: whatever nests inside an "electrode N" span moves to electrode N's
 * list; the electrode span itself and everything outside any stays. Nesting is found with the
 * same stack rowsOf uses (sorted by start, longer first).
 */
function splitByElectrode(spans: RawSpan[], strings: readonly string[]): { main: RawSpan[]; electrodes: Map<number, RawSpan[]> } {
  spans.sort((a, b) => a.start - b.start || b.dur - a.dur);
  const main: RawSpan[] = [];
  const electrodes = new Map<number, RawSpan[]>();
  const stack: { end: number; electrode: number | undefined }[] = [];
  for (const s of spans) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= s.start) stack.pop();
    const inside = stack.length > 0 ? stack[stack.length - 1]!.electrode : undefined;
    let electrode = inside;
    if (inside === undefined) {
      main.push(s);
      const m = ELECTRODE_SPAN.exec(strings[s.name]!);
      if (m) electrode = Number(m[1]);
    } else {
      let list = electrodes.get(inside);
      if (!list) electrodes.set(inside, (list = []));
      list.push(s);
    }
    stack.push({ end: s.start + s.dur, electrode });
  }
  return { main, electrodes };
}

/** Assigns depths with a stack, the way a viewer nests spans: sorted by start, longer first on ties. */
function rowsOf(spans: RawSpan[]): DepthRow[] {
  spans.sort((a, b) => a.start - b.start || b.dur - a.dur);
  const byDepth: RawSpan[][] = [];
  const stackEnds: number[] = [];
  for (const s of spans) {
    while (stackEnds.length > 0 && stackEnds[stackEnds.length - 1]! <= s.start) stackEnds.pop();
    const depth = stackEnds.length;
    (byDepth[depth] ??= []).push(s);
    stackEnds.push(s.start + s.dur);
  }
  return byDepth.map((list, depth) => {
    const n = list.length;
    const row: DepthRow = {
      depth,
      start: new Float64Array(n),
      dur: new Float64Array(n),
      maxEnd: new Float64Array(n),
      name: new Int32Array(n),
      cat: new Int32Array(n),
      args: new Array(n),
    };
    let maxEnd = -Infinity;
    list.forEach((s, i) => {
      row.start[i] = s.start;
      row.dur[i] = s.dur;
      maxEnd = Math.max(maxEnd, s.start + s.dur);
      row.maxEnd[i] = maxEnd;
      row.name[i] = s.name;
      row.cat[i] = s.cat;
      row.args[i] = s.args;
    });
    return row;
  });
}

export function buildTimelineIndex(records: Iterable<TraceRecord>, options: TimelineIndexOptions = {}): TimelineIndex {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const intern = (s: string): number => {
    let id = ids.get(s);
    if (id === undefined) {
      id = strings.length;
      strings.push(s);
      ids.set(s, id);
    }
    return id;
  };
  const spansByLane = new Map<string, RawSpan[]>();
  const laneNames = new Map<string, string>();
  const laneProc = new Map<string, string>();
  const instants: TimelineIndex['instants'] = [];
  let startUs = Infinity;
  let endUs = -Infinity;
  let total = 0;
  const open = options.open ?? [];
  // starts of complete spans that share a lane and name with an open one, to drop the open one once the trace has it
  const closedStarts = new Map<string, number[]>();
  for (const o of open) closedStarts.set(`${laneId(o.proc, o.tid)}\u0000${o.name}`, []);
  for (const r of records) {
    total++;
    if (r.ph === 'M') {
      laneNames.set(laneId(r.proc, r.tid), r.args.name);
      continue;
    }
    startUs = Math.min(startUs, r.ts);
    if (r.ph === 'X') {
      const id = laneId(r.proc, r.tid);
      laneProc.set(id, r.proc);
      let list = spansByLane.get(id);
      if (!list) spansByLane.set(id, (list = []));
      const dur = Math.max(0, r.dur);
      list.push({ start: r.ts, dur, name: intern(r.name), cat: intern(r.cat), args: r.args });
      endUs = Math.max(endUs, r.ts + dur);
      if (closedStarts.size > 0) closedStarts.get(`${id}\u0000${r.name}`)?.push(r.ts);
    } else {
      endUs = Math.max(endUs, r.ts);
      if (r.ph === 'I') instants.push({ lane: laneId(r.proc, r.tid), name: r.name, tsUs: r.ts });
    }
  }
  instants.sort((a, b) => a.tsUs - b.tsUs);
  for (const o of open) {
    if (!Number.isFinite(startUs) || o.startUs < startUs) startUs = o.startUs;
    endUs = Math.max(endUs, o.startUs);
  }
  for (const o of open) {
    const id = laneId(o.proc, o.tid);
    const done = closedStarts.get(`${id}\u0000${o.name}`) ?? [];
    if (done.some((t) => Math.abs(t - o.startUs) <= SAME_SPAN_US)) continue;
    laneProc.set(id, o.proc);
    let list = spansByLane.get(id);
    if (!list) spansByLane.set(id, (list = []));
    // drawn up to the newest event: the span is known to be open at least that long
    list.push({ start: o.startUs, dur: Math.max(0, endUs - o.startUs), name: intern(o.name), cat: intern(o.proc), args: { ...o.args, [IN_PROGRESS_ARG]: true } });
  }
  const order = (id: string) => (laneProc.get(id) === 'service' ? 0 : 1);
  const lanes: LaneIndex[] = [];
  for (const [id, spans] of spansByLane) {
    const proc = laneProc.get(id) ?? id.split(':')[0]!;
    const thread = laneNames.get(id);
    const name = thread && thread !== proc ? `${proc} · ${thread}` : proc;
    const { main, electrodes } = splitByElectrode(spans, strings);
    lanes.push({ lane: { id, name }, rows: rowsOf(main) });
    for (const [electrode, inner] of electrodes) {
      lanes.push({ lane: { id: electrodeLaneId(id, electrode), name: `${name} · electrode ${electrode}` }, rows: rowsOf(inner) });
    }
  }
  lanes.sort((a, b) => order(a.lane.id.split('/')[0]!) - order(b.lane.id.split('/')[0]!) || a.lane.id.localeCompare(b.lane.id, undefined, { numeric: true }));
  if (!Number.isFinite(startUs)) startUs = 0;
  if (!Number.isFinite(endUs)) endUs = startUs;
  return { lanes, strings, instants, startUs, endUs, totalEvents: total };
}
