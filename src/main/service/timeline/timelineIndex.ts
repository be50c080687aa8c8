/**
 * An in-memory index of a run's spans for the timeline: per lane (process, thread) and nesting
 * depth, spans sorted by start in flat typed arrays. Queries (timelineQuery.ts) binary-search the
 * window instead of scanning every record.
 *
 * The builder takes records one at a time and can build an index again after more arrived: the
 * live timeline (liveTimeline.ts) feeds it batch by batch, a finished run's file feeds it once.
 * Between builds it keeps each lane's spans sorted in place, so a rebuild sorts little.
 *
 * Lanes per process and electrode: what runs inside an electrode span (the stages of one
 * electrode's fit or decode) goes on a lane of its own, named with the dataset's name for the
 * electrode ("engine · tet03") that its spans carry; the loop's spans
 * (run, strategy, repeat, encode, decode) and the electrode spans themselves stay on the process
 * lane. A live run's open spans (begun, not yet ended, so not in the trace) are drawn from their
 * start to the newest event and marked `inProgress`.
 */
import { IN_PROGRESS_ARG, laneIdOf, type TimelineLane } from '../../../shared/api';
import type { OpenSpan, ProcessRole, TraceRecord } from '../../../shared/events';
import { electrodeLabel } from '../../../shared/traceSpans';
import { bySpanStart, laneRows, type RawSpan } from './timelineRows';

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

export interface TimelineInstant {
  lane: string;
  name: string;
  tsUs: number;
}

export interface TimelineIndex {
  lanes: LaneIndex[];
  strings: readonly string[];
  /** sorted by time */
  instants: TimelineInstant[];
  /** instants' times, for binary search */
  instantTsUs: Float64Array;
  startUs: number;
  endUs: number;
  totalEvents: number;
}

/** re-exported for the service's tests, which read the mark on the boxes they get */
export { IN_PROGRESS_ARG };
/** an open span and the complete one the trace later holds start this close (µs) */
const SAME_SPAN_US = 5_000;

const laneId = (process: ProcessRole, thread: number): string => laneIdOf({ process, thread });

/** lanes of the service first, then the engine's, then the external engines' */
const PROCESS_ORDER: Record<ProcessRole, number> = { service: 0, engine: 1, external: 2 };

/** one (process, thread) lane as records arrive */
interface LaneState {
  proc: ProcessRole;
  tid: number;
  /** complete spans, sorted bySpanStart up to the last build, then in arrival order */
  spans: RawSpan[];
  /** complete spans' starts by name id, to drop an open span once the trace holds it */
  startsByName: Map<number, number[]>;
}

/** a lane's open spans, drawn up to the newest event */
interface DrawnOpen {
  proc: ProcessRole;
  tid: number;
  spans: RawSpan[];
}

export class TimelineIndexBuilder {
  /** interned names and categories; append-only, so an index built earlier keeps valid ids */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly lanes = new Map<string, LaneState>();
  private readonly threadNames = new Map<string, string>();
  private readonly instants: TimelineInstant[] = [];
  private startUs = Infinity;
  private endUs = -Infinity;
  private total = 0;

  get recordCount(): number {
    return this.total;
  }

  private intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  add(r: TraceRecord): void {
    this.total++;
    if (r.ph === 'M') {
      this.threadNames.set(laneId(r.proc, r.tid), r.args.name);
      return;
    }
    this.startUs = Math.min(this.startUs, r.ts);
    if (r.ph === 'X') {
      const id = laneId(r.proc, r.tid);
      let lane = this.lanes.get(id);
      if (!lane) this.lanes.set(id, (lane = { proc: r.proc, tid: r.tid, spans: [], startsByName: new Map() }));
      const dur = Math.max(0, r.dur);
      const name = this.intern(r.name);
      lane.spans.push({ start: r.ts, dur, name, cat: this.intern(r.cat), args: r.args });
      const starts = lane.startsByName.get(name);
      if (starts) starts.push(r.ts);
      else lane.startsByName.set(name, [r.ts]);
      this.endUs = Math.max(this.endUs, r.ts + dur);
    } else {
      this.endUs = Math.max(this.endUs, r.ts);
      if (r.ph === 'I') this.instants.push({ lane: laneId(r.proc, r.tid), name: r.name, tsUs: r.ts });
    }
  }

  /** The index of everything added so far, with `open` drawn up to the newest event. */
  build(open: readonly OpenSpan[] = []): TimelineIndex {
    let { startUs, endUs } = this;
    for (const o of open) {
      if (!Number.isFinite(startUs) || o.startUs < startUs) startUs = o.startUs;
      endUs = Math.max(endUs, o.startUs);
    }
    const drawnOpen = this.drawnOpenByLane(open, endUs);
    const lanes: LaneIndex[] = [];
    for (const id of new Set([...this.lanes.keys(), ...drawnOpen.keys()])) lanes.push(...this.laneIndexes(id, drawnOpen.get(id)));
    lanes.sort((a, b) => PROCESS_ORDER[a.lane.process] - PROCESS_ORDER[b.lane.process] || a.lane.id.localeCompare(b.lane.id, undefined, { numeric: true }));
    const instants = this.instants.sort((a, b) => a.tsUs - b.tsUs).slice();
    if (!Number.isFinite(startUs)) startUs = 0;
    if (!Number.isFinite(endUs)) endUs = startUs;
    return {
      lanes,
      strings: this.strings,
      instants,
      instantTsUs: Float64Array.from(instants, (i) => i.tsUs),
      startUs,
      endUs,
      totalEvents: this.total,
    };
  }

  private isTraced(lane: string, o: OpenSpan): boolean {
    const name = this.ids.get(o.name);
    const starts = name === undefined ? undefined : this.lanes.get(lane)?.startsByName.get(name);
    if (!starts) return false;
    // newest first: a span that just closed is at the end
    for (let i = starts.length - 1; i >= 0; i--) if (Math.abs(starts[i]! - o.startUs) <= SAME_SPAN_US) return true;
    return false;
  }

  /** open spans the trace does not hold yet, as spans drawn up to `endUs`, by lane */
  private drawnOpenByLane(open: readonly OpenSpan[], endUs: number): Map<string, DrawnOpen> {
    const byLane = new Map<string, DrawnOpen>();
    for (const o of open) {
      const id = laneId(o.proc, o.tid);
      if (this.isTraced(id, o)) continue;
      let entry = byLane.get(id);
      if (!entry) byLane.set(id, (entry = { proc: o.proc, tid: o.tid, spans: [] }));
      // drawn up to the newest event: the span is known to be open at least that long
      const args = { ...o.args, [IN_PROGRESS_ARG]: true };
      entry.spans.push({ start: o.startUs, dur: Math.max(0, endUs - o.startUs), name: this.intern(o.name), cat: this.intern(o.proc), args });
    }
    return byLane;
  }

  /** a (process, thread) lane and the electrode lanes split from it */
  private laneIndexes(id: string, drawnOpen: DrawnOpen | undefined): LaneIndex[] {
    const lane = this.lanes.get(id);
    // in place and stable: the next build finds the lane sorted but for what arrived since
    const closed = lane?.spans.sort(bySpanStart) ?? [];
    const spans = drawnOpen ? closed.concat(drawnOpen.spans).sort(bySpanStart) : closed;
    const { proc: process, tid: thread } = lane ?? drawnOpen!;
    const threadName = this.threadNames.get(id);
    const name = threadName && threadName !== process ? `${process} · ${threadName}` : process;
    const { main, electrodes, electrodeNames } = laneRows(spans, this.strings);
    const out: LaneIndex[] = [{ lane: { id, name, process, thread }, rows: main }];
    for (const [index, rows] of electrodes) {
      const electrodeName = electrodeNames.get(index);
      const electrode = electrodeName === undefined ? { index } : { index, name: electrodeName };
      const laneName = `${name} · ${electrodeLabel(index, electrodeName)}`;
      out.push({ lane: { id: laneIdOf({ process, thread, electrode: index }), name: laneName, process, thread, electrode }, rows });
    }
    return out;
  }
}

export function buildTimelineIndex(records: Iterable<TraceRecord>, options: { open?: readonly OpenSpan[] } = {}): TimelineIndex {
  const builder = new TimelineIndexBuilder();
  for (const r of records) builder.add(r);
  return builder.build(options.open);
}
