/**
 * What a live run's timeline gained since the last notice, so a page hears what changed instead
 * of every record: per thread lane the time range its spans and instants changed in, the counter
 * points recorded, how far the trace reaches, and whether the lanes a view lists changed.
 *
 * An open span is drawn from its start to the newest event (timelineIndex.ts), so the open list
 * changes ranges too: a span that opened changes its lane from its start on, one that closed or
 * vanished up to where it was drawn, and every span still open grows by what the trace gained.
 */
import { laneIdOf, type CounterDelta, type LaneChange } from '../../../shared/api';
import { counterDeltasOf } from '../../../shared/counterSeries';
import { MAX_NOTICE_LANES, MAX_NOTICE_POINTS, type OpenSpan, type ProcessRole, type TimelineNotice, type TraceRecord } from '../../../shared/events';
import { electrodeIndexOf } from '../../../shared/traceSpans';

/** a notice without its type and run id: what the timeline says changed */
export type TimelineChange = Omit<TimelineNotice, 'type' | 'runId'>;

const sameOpenSpan = (a: OpenSpan, b: OpenSpan): boolean => a.proc === b.proc && a.tid === b.tid && a.name === b.name && a.startUs === b.startUs;

export class TimelineChanges {
  private ranges = new Map<string, LaneChange>();
  private counterRecords: TraceRecord[] = [];
  private lanesChanged = false;
  /** thread lanes, and electrode lanes split from them, seen so far */
  private readonly knownLanes = new Set<string>();
  private latestUs = 0;
  /** what the previous change said: the open spans then and how far the trace reached */
  private noticedOpen: readonly OpenSpan[] = [];
  private noticedLatestUs = 0;
  private pending = false;

  note(r: TraceRecord): void {
    this.pending = true;
    switch (r.ph) {
      case 'M':
        // a lane's name: every view lists it
        this.lanesChanged = true;
        return;
      case 'C':
        this.counterRecords.push(r);
        this.reach(r.ts);
        return;
      case 'I':
        this.widen(r.proc, r.tid, r.ts, r.ts);
        this.reach(r.ts);
        return;
      case 'X': {
        const end = r.ts + Math.max(0, r.dur);
        this.widen(r.proc, r.tid, r.ts, end);
        this.reach(end);
        // a complete electrode span: its stages, on the electrode's lane, have all arrived by now
        const electrode = electrodeIndexOf(r.name, r.args);
        if (electrode >= 0) this.knowLane(r.proc, r.tid, electrode);
        return;
      }
    }
  }

  /**
   * What changed since the previous call, `open` being the spans open now, split into as many
   * changes as the notice's bounds need; empty when nothing did.
   */
  take(open: readonly OpenSpan[]): TimelineChange[] {
    const openChanged = open.length !== this.noticedOpen.length || open.some((o, i) => !sameOpenSpan(o, this.noticedOpen[i]!));
    for (const o of open) this.reach(o.startUs);
    if (!this.pending && !openChanged && this.latestUs === this.noticedLatestUs) return [];
    this.widenForOpen(open);
    const change: TimelineChange = {
      latestUs: this.latestUs, changed: [...this.ranges.values()], lanesChanged: this.lanesChanged, counters: counterDeltasOf(this.counterRecords),
    };
    this.ranges = new Map();
    this.counterRecords = [];
    this.lanesChanged = false;
    this.pending = false;
    this.noticedOpen = open.slice();
    this.noticedLatestUs = this.latestUs;
    return splitChange(change);
  }

  private widenForOpen(open: readonly OpenSpan[]): void {
    for (const o of open) {
      const before = this.noticedOpen.some((p) => sameOpenSpan(p, o));
      this.knowLane(o.proc, o.tid);
      if (!before) this.widen(o.proc, o.tid, o.startUs, this.latestUs);
      else if (this.latestUs > this.noticedLatestUs) this.widen(o.proc, o.tid, this.noticedLatestUs, this.latestUs);
    }
    for (const p of this.noticedOpen) {
      if (!open.some((o) => sameOpenSpan(o, p))) this.widen(p.proc, p.tid, p.startUs, this.noticedLatestUs);
    }
  }

  private reach(us: number): void {
    if (us > this.latestUs) this.latestUs = us;
  }

  private knowLane(process: ProcessRole, thread: number, electrode?: number): void {
    const id = laneIdOf({ process, thread, ...(electrode === undefined ? {} : { electrode }) });
    if (this.knownLanes.has(id)) return;
    this.knownLanes.add(id);
    this.lanesChanged = true;
  }

  private widen(process: ProcessRole, thread: number, startUs: number, endUs: number): void {
    this.knowLane(process, thread);
    const id = laneIdOf({ process, thread });
    const r = this.ranges.get(id);
    if (!r) this.ranges.set(id, { lane: { process, thread }, startUs, endUs: Math.max(startUs, endUs) });
    else {
      r.startUs = Math.min(r.startUs, startUs);
      r.endUs = Math.max(r.endUs, endUs);
    }
  }
}

/** One change as several within MAX_NOTICE_LANES lanes and MAX_NOTICE_POINTS counter points each, in order. */
export function splitChange(change: TimelineChange): TimelineChange[] {
  const out: TimelineChange[] = [];
  let current: TimelineChange = { ...change, changed: change.changed.slice(0, MAX_NOTICE_LANES), counters: [] };
  let points = 0;
  const next = (): void => {
    out.push(current);
    current = { latestUs: change.latestUs, changed: [], lanesChanged: false, counters: [] };
    points = 0;
  };
  for (let from = MAX_NOTICE_LANES; from < change.changed.length; from += MAX_NOTICE_LANES) {
    next();
    current.changed = change.changed.slice(from, from + MAX_NOTICE_LANES);
  }
  for (const d of change.counters) {
    for (let from = 0; from < d.points.length;) {
      if (points === MAX_NOTICE_POINTS) next();
      const take = Math.min(d.points.length - from, MAX_NOTICE_POINTS - points);
      const part: CounterDelta = { ...d, points: d.points.slice(from, from + take) };
      current.counters.push(part);
      points += take;
      from += take;
    }
  }
  out.push(current);
  return out;
}
