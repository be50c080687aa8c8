/**
 * Counter series for the memory graphs, built in one place for both sides: the service builds a
 * run's series from its trace records (a live run batch by batch, a finished run's file at once)
 * and the live page builds the same series from the counter points each notice brings, so what the
 * page draws while the run records is what the service answers once it has ended.
 *
 * One series per (process, counter name, key). Memory stays bounded: a series that reaches twice
 * the points it keeps is thinned to that many, by keeping each bucket's minimum and maximum, so
 * peaks and troughs survive; an answer is thinned the same way to the points it may carry.
 */
import type { CounterRecord, ProcessRole, TraceRecord } from './events';
import type { CounterDelta, CounterSeries } from './timelineView';

/** points a series keeps, and the most an answer carries */
export const MAX_COUNTER_POINTS = 4_000;

/** A series with the process that recorded it (the live page labels series by it). */
export interface ProcessCounterSeries extends CounterSeries {
  proc: ProcessRole;
}

/** At most `max` of the points, sorted by time: each of max/2 buckets gives its minimum and maximum. */
export function thinPoints(points: [number, number][], max: number): [number, number][] {
  if (points.length <= max) return points;
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = points.length / buckets;
  const out: [number, number][] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if (points[i]![1] < points[lo]![1]) lo = i;
      if (points[i]![1] > points[hi]![1]) hi = i;
    }
    for (const i of lo <= hi ? [lo, hi] : [hi, lo]) {
      if (out[out.length - 1] !== points[i]) out.push(points[i]!);
    }
  }
  return out;
}

const seriesId = (proc: string, name: string, key: string): string => `${proc}\u0000${name}\u0000${key}`;

/** the finite values of a counter record, by key */
function valuesOf(r: CounterRecord): [string, number][] {
  return Object.entries(r.args).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
}

export class CounterSeriesBuilder {
  /** per (process, counter, key) in first-seen order; points in arrival order since the last sort */
  private readonly series = new Map<string, ProcessCounterSeries>();

  /** per series, the last time of a history taken whole (seed): a notice's point at or before it is already there */
  private readonly seededUntil = new Map<string, number>();

  constructor(private readonly keepPoints = MAX_COUNTER_POINTS) {}

  /** Takes a trace record; anything but a counter is ignored. Returns whether a point was added. */
  add(r: TraceRecord): boolean {
    if (r.ph !== 'C') return false;
    let added = false;
    for (const [key, value] of valuesOf(r)) {
      this.push(r.proc, r.name, key, r.ts, value);
      added = true;
    }
    return added;
  }

  /** Takes the points a live notice brought for one series. */
  addDelta(d: CounterDelta): void {
    const until = this.seededUntil.get(seriesId(d.proc, d.name, d.key)) ?? -Infinity;
    for (const [ts, value] of d.points) if (Number.isFinite(ts) && Number.isFinite(value) && ts > until) this.push(d.proc, d.name, d.key, ts, value);
  }

  /**
   * Takes a run's history answered whole (a page that joined a live run late asks for it), beside
   * what notices brought meanwhile: the points they brought after its end are kept, and a notice's
   * point the history already holds (the answer and the notice crossed) is not added twice. A series
   * that does not say its process is the engine's, as the memory graph reads it.
   */
  seed(series: readonly CounterSeries[]): void {
    for (const h of series) {
      const proc = h.proc ?? 'engine';
      const id = seriesId(proc, h.name, h.key);
      const points = h.points.filter(([ts, value]) => Number.isFinite(ts) && Number.isFinite(value)).map(([ts, value]): [number, number] => [ts, value]);
      sortByTime(points);
      const until = points.length > 0 ? points[points.length - 1]![0] : -Infinity;
      const heard = this.series.get(id)?.points.filter(([ts]) => ts > until) ?? [];
      this.series.set(id, { name: h.name, key: h.key, proc, points: [...points, ...heard] });
      this.seededUntil.set(id, Math.max(until, this.seededUntil.get(id) ?? -Infinity));
    }
  }

  /** Fresh arrays each time: what is returned does not grow with later points. */
  build(maxPoints = this.keepPoints): CounterSeries[] {
    return this.withProcess(maxPoints).map(({ name, key, points }) => ({ name, key, points }));
  }

  /** As build, each series with the process that recorded it. */
  withProcess(maxPoints = this.keepPoints): ProcessCounterSeries[] {
    return [...this.series.values()].map((s) => {
      sortByTime(s.points);
      const points = thinPoints(s.points, maxPoints);
      return { name: s.name, key: s.key, proc: s.proc, points: points === s.points ? points.slice() : points };
    });
  }

  reset(): void {
    this.series.clear();
    this.seededUntil.clear();
  }

  private push(proc: ProcessRole, name: string, key: string, ts: number, value: number): void {
    const id = seriesId(proc, name, key);
    let s = this.series.get(id);
    if (!s) this.series.set(id, (s = { name, key, proc, points: [] }));
    s.points.push([ts, value]);
    if (s.points.length >= 2 * this.keepPoints) {
      sortByTime(s.points);
      s.points = thinPoints(s.points, this.keepPoints);
    }
  }
}

/** stable and in place: a sort after more arrived only has the new points to move */
function sortByTime(points: [number, number][]): void {
  points.sort((a, b) => a[0] - b[0]);
}

export function counterSeries(records: Iterable<TraceRecord>, maxPoints = MAX_COUNTER_POINTS): CounterSeries[] {
  const builder = new CounterSeriesBuilder();
  for (const r of records) builder.add(r);
  return builder.build(maxPoints);
}

/** The counter points of a batch of records, per series in first-seen order: what a live notice carries. */
export function counterDeltasOf(records: Iterable<TraceRecord>): CounterDelta[] {
  const byId = new Map<string, CounterDelta>();
  for (const r of records) {
    if (r.ph !== 'C') continue;
    for (const [key, value] of valuesOf(r)) {
      const id = seriesId(r.proc, r.name, key);
      let d = byId.get(id);
      if (!d) byId.set(id, (d = { proc: r.proc, name: r.name, key, points: [] }));
      d.points.push([r.ts, value]);
    }
  }
  return [...byId.values()];
}
