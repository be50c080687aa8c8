/**
 * An in-memory index of a run's spans for the timeline: per lane (process, thread) and nesting
 * depth, spans sorted by start in flat typed arrays, built once from the records. Queries
 * (timelineQuery.ts) binary-search the window instead of scanning every record.
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

function laneId(proc: string, tid: number): string {
  return `${proc}:${tid}`;
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

export function buildTimelineIndex(records: Iterable<TraceRecord>): TimelineIndex {
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
    } else {
      endUs = Math.max(endUs, r.ts);
      if (r.ph === 'I') instants.push({ lane: laneId(r.proc, r.tid), name: r.name, tsUs: r.ts });
    }
  }
  instants.sort((a, b) => a.tsUs - b.tsUs);
  const order = (id: string) => (laneProc.get(id) === 'service' ? 0 : 1);
  const lanes = [...spansByLane.entries()]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b, undefined, { numeric: true }))
    .map(([id, spans]): LaneIndex => {
      const proc = laneProc.get(id) ?? id.split(':')[0]!;
      const thread = laneNames.get(id);
      const name = thread && thread !== proc ? `${proc} · ${thread}` : proc;
      return { lane: { id, name }, rows: rowsOf(spans) };
    });
  if (!Number.isFinite(startUs)) startUs = 0;
  if (!Number.isFinite(endUs)) endUs = startUs;
  return { lanes, strings, instants, startUs, endUs, totalEvents: total };
}
