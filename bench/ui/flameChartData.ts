/**
 * A run's trace in flame-chart-js's input form: one tree of nested nodes per thread lane (times in
 * ms), nesting found the way the service's timeline index finds depths (spans sorted by start,
 * longer first on ties, a stack of ends). Every span of the run is a node: the library receives
 * the whole trace and does its own level of detail, which is what is being compared.
 */
import type { TraceRecord } from '../../src/shared/events';

/** the shape of flame-chart-js's FlameChartNode that this data uses */
export interface FlameNode {
  name: string;
  /** ms from the run's start */
  start: number;
  duration: number;
  /** the colour key: the name without its trailing number ("electrode 5" → "electrode") */
  type: string;
  children?: FlameNode[];
}

export interface FlameLane {
  /** "engine · worker 0", as the app names the thread's lane */
  name: string;
  nodes: FlameNode[];
}

export interface FlameChartData {
  lanes: FlameLane[];
  /** records in the run's events file */
  totalEvents: number;
  /** nodes over all lanes */
  spans: number;
}

interface RawLane {
  proc: string;
  tid: number;
  spans: { start: number; dur: number; name: string }[];
}

/** µs to ms, kept to the ns the trace has */
const ms = (us: number): number => Math.round(us * 1000) / 1e6;

export function colourKey(name: string): string {
  return name.replace(/ \d+$/, '');
}

function nest(spans: RawLane['spans']): FlameNode[] {
  spans.sort((a, b) => a.start - b.start || b.dur - a.dur);
  const roots: FlameNode[] = [];
  const open: { node: FlameNode; endNs: number }[] = [];
  for (const s of spans) {
    // in whole ns, as the recorder measured them: a span that starts where the last one ended is its sibling
    const startNs = Math.round(s.start * 1000);
    while (open.length > 0 && open[open.length - 1]!.endNs <= startNs) open.pop();
    const node: FlameNode = { name: s.name, start: ms(s.start), duration: ms(s.dur), type: colourKey(s.name) };
    const parent = open[open.length - 1]?.node;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
    open.push({ node, endNs: Math.round((s.start + s.dur) * 1000) });
  }
  return roots;
}

export function flameChartData(records: Iterable<TraceRecord>): FlameChartData {
  const lanes = new Map<string, RawLane>();
  const threadNames = new Map<string, string>();
  let totalEvents = 0;
  let spans = 0;
  for (const r of records) {
    totalEvents++;
    if (r.ph === 'M') threadNames.set(`${r.proc}:${r.tid}`, r.args.name);
    if (r.ph !== 'X') continue;
    const id = `${r.proc}:${r.tid}`;
    let lane = lanes.get(id);
    if (!lane) lanes.set(id, (lane = { proc: r.proc, tid: r.tid, spans: [] }));
    lane.spans.push({ start: r.ts, dur: Math.max(0, r.dur), name: r.name });
    spans++;
  }
  // the service's lane first, then the engine's threads in order, as the app lists them
  const ordered = [...lanes.entries()].sort(([, a], [, b]) => Number(a.proc !== 'service') - Number(b.proc !== 'service') || a.tid - b.tid);
  return {
    lanes: ordered.map(([id, lane]) => {
      const thread = threadNames.get(id);
      return { name: thread && thread !== lane.proc ? `${lane.proc} · ${thread}` : lane.proc, nodes: nest(lane.spans) };
    }),
    totalEvents,
    spans,
  };
}
