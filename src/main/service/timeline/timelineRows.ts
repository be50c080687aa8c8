/**
 * Turns one lane's spans into the timeline's rows, in one pass without a temporary object per span
 * (a live run's index is rebuilt from a million spans): what nests inside an electrode span (named
 * `electrode`, its index in the args; "electrode N" in older runs) moves to a lane of its own, and each lane's spans get depths the way a viewer nests them (sorted
 * by start, longer first on ties, a stack of ends). Shared by the index built from a file and the
 * live one.
 */
import { electrodeIndexOf, electrodeNameOf, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import type { DepthRow } from './timelineIndex';

/** one complete (or drawn-open) span of a lane, its name and category interned */
export interface RawSpan {
  start: number;
  dur: number;
  name: number;
  cat: number;
  args: Record<string, unknown> | undefined;
}

export interface LaneRows {
  /** the spans outside any electrode span, and the electrode spans themselves */
  main: DepthRow[];
  /** what nests inside electrode spans, by electrode index in first-seen order */
  electrodes: Map<number, DepthRow[]>;
  /** the dataset's name of each electrode, from its spans' args, where they carry one */
  electrodeNames: Map<number, string>;
}

/** "inside no electrode span" on the nesting stack (electrode indices are ≥ 0) */
const NO_ELECTRODE = -1;

/** by start, longer first on ties; Array.prototype.sort is stable, so equal keys keep arrival order */
export function bySpanStart(a: RawSpan, b: RawSpan): number {
  return a.start - b.start || b.dur - a.dur;
}

/** one output lane's nesting stack and how many spans each of its depths holds */
interface Nesting {
  ends: number[];
  counts: number[];
}

/**
 * Times are float µs with nanosecond resolution: `ts + dur` of a span can land one rounding step
 * past the `ts` of the sibling that starts on the very nanosecond it ended. Within half a
 * nanosecond counts as ended, so such a sibling stays on its row instead of nesting one deeper.
 */
const ENDED_WITHIN_US = 0.0005;
const endedBy = (end: number, start: number): boolean => end <= start + ENDED_WITHIN_US;

/** the depth of a span that starts at `start` on this lane, and its push onto the stack */
function nest(lane: Nesting, start: number, end: number): number {
  while (lane.ends.length > 0 && endedBy(lane.ends[lane.ends.length - 1]!, start)) lane.ends.pop();
  const depth = lane.ends.length;
  lane.ends.push(end);
  lane.counts[depth] = (lane.counts[depth] ?? 0) + 1;
  return depth;
}

function emptyRow(depth: number, n: number): DepthRow {
  return {
    depth,
    start: new Float64Array(n),
    dur: new Float64Array(n),
    maxEnd: new Float64Array(n),
    name: new Int32Array(n),
    cat: new Int32Array(n),
    args: new Array<Record<string, unknown> | undefined>(n),
  };
}

/**
 * `spans` must be sorted bySpanStart. Nesting under electrode spans is found with one stack over
 * all spans; depths with one stack per output lane, over that lane's spans in the same order.
 */
export function laneRows(spans: readonly RawSpan[], strings: readonly string[]): LaneRows {
  // most names are never electrode spans: decide that once per interned name, and read the args
  // only of the spans named `electrode`
  const electrodeOfName = new Map<number, number | 'args'>();
  const electrodeNumber = (s: RawSpan): number => {
    let n = electrodeOfName.get(s.name);
    if (n === undefined) {
      const text = strings[s.name]!;
      electrodeOfName.set(s.name, (n = text === ELECTRODE_SPAN ? 'args' : electrodeIndexOf(text, undefined)));
    }
    return n === 'args' ? electrodeIndexOf(ELECTRODE_SPAN, s.args) : n;
  };
  // output lane 0 is the main lane, k + 1 the k-th electrode seen
  const lanes: Nesting[] = [{ ends: [], counts: [] }];
  const laneOfElectrode = new Map<number, number>();
  const laneOf = new Int32Array(spans.length);
  const depthOf = new Int32Array(spans.length);
  const splitEnds: number[] = [];
  const splitElectrode: number[] = [];
  spans.forEach((s, i) => {
    while (splitEnds.length > 0 && endedBy(splitEnds[splitEnds.length - 1]!, s.start)) {
      splitEnds.pop();
      splitElectrode.pop();
    }
    const inside = splitElectrode.length > 0 ? splitElectrode[splitElectrode.length - 1]! : NO_ELECTRODE;
    let lane = 0;
    if (inside !== NO_ELECTRODE) {
      lane = laneOfElectrode.get(inside) ?? lanes.push({ ends: [], counts: [] }) - 1;
      laneOfElectrode.set(inside, lane);
    }
    splitEnds.push(s.start + s.dur);
    splitElectrode.push(inside === NO_ELECTRODE ? electrodeNumber(s) : inside);
    laneOf[i] = lane;
    depthOf[i] = nest(lanes[lane]!, s.start, s.start + s.dur);
  });
  const rows = lanes.map((l) => l.counts.map((n, depth) => emptyRow(depth, n)));
  const filled = lanes.map((l) => new Int32Array(l.counts.length));
  spans.forEach((s, i) => {
    const lane = laneOf[i]!;
    const depth = depthOf[i]!;
    const row = rows[lane]![depth]!;
    const next = filled[lane]!;
    const j = next[depth]!;
    next[depth] = j + 1;
    row.start[j] = s.start;
    row.dur[j] = s.dur;
    row.maxEnd[j] = Math.max(j > 0 ? row.maxEnd[j - 1]! : -Infinity, s.start + s.dur);
    row.name[j] = s.name;
    row.cat[j] = s.cat;
    row.args[j] = s.args;
  });
  const electrodeNames = new Map<number, string>();
  spans.forEach((s, i) => {
    if (laneOf[i] !== 0) return;
    const e = electrodeNumber(s);
    const name = e === NO_ELECTRODE || electrodeNames.has(e) ? undefined : electrodeNameOf(s.args);
    if (name !== undefined) electrodeNames.set(e, name);
  });
  return { main: rows[0]!, electrodes: new Map([...laneOfElectrode].map(([electrode, lane]) => [electrode, rows[lane]!])), electrodeNames };
}
