/**
 * Counter series of a run for the memory graphs, one per (counter name, key), thinned to a bounded
 * number of points by keeping each bucket's minimum and maximum, so peaks survive the thinning.
 */
import type { CounterSeries } from '../../../shared/api';
import type { TraceRecord } from '../../../shared/events';

export const MAX_COUNTER_POINTS = 4_000;

function thin(points: [number, number][], max: number): [number, number][] {
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

/**
 * Collects counter records as they come (a live run's batches, or a file's records at once) and
 * answers the thinned series at any point.
 */
export class CounterSeriesBuilder {
  /** per (process, counter, key) in first-seen order, points in arrival order until sorted */
  private readonly series = new Map<string, CounterSeries>();

  add(r: TraceRecord): void {
    if (r.ph !== 'C') return;
    for (const [key, value] of Object.entries(r.args)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      const id = `${r.proc}\u0000${r.name}\u0000${key}`;
      let s = this.series.get(id);
      if (!s) this.series.set(id, (s = { name: r.name, key, points: [] }));
      s.points.push([r.ts, value]);
    }
  }

  /** Fresh arrays each time: what is returned does not grow with later records. */
  build(maxPoints = MAX_COUNTER_POINTS): CounterSeries[] {
    return [...this.series.values()].map((s) => {
      // stable and in place: a later sort only has the newly arrived points to move
      s.points.sort((a, b) => a[0] - b[0]);
      const points = thin(s.points, maxPoints);
      return { name: s.name, key: s.key, points: points === s.points ? points.slice() : points };
    });
  }
}

export function counterSeries(records: Iterable<TraceRecord>, maxPoints = MAX_COUNTER_POINTS): CounterSeries[] {
  const builder = new CounterSeriesBuilder();
  for (const r of records) builder.add(r);
  return builder.build(maxPoints);
}
