/**
 * Counter series built up from the trace batches of a running run, for the live memory graph.
 * One series per (process, counter name, key); a long run is thinned by halving, keeping the larger
 * value of each pair so peaks survive, which bounds memory and chart cost.
 */
import type { CounterSeries } from '../../../shared/api';
import type { ProcessRole, TraceRecord } from '../../../shared/events';

export interface LiveCounterSeries extends CounterSeries {
  /** which process recorded it; absent for series read back from a finished run */
  proc?: ProcessRole;
}

const MAX_LIVE_POINTS = 4_000;

/** halves a series in place: each pair becomes the point with the larger value */
export function halvePoints(points: [number, number][]): void {
  let w = 0;
  for (let i = 0; i < points.length; i += 2) {
    const a = points[i]!;
    const b = points[i + 1];
    points[w++] = b !== undefined && b[1] > a[1] ? b : a;
  }
  points.length = w;
}

export class CounterAccumulator {
  private readonly byId = new Map<string, LiveCounterSeries>();
  private readonly maxPoints: number;
  /** latest time any record reached, µs from the run's start */
  latestUs = 0;

  constructor(maxPoints = MAX_LIVE_POINTS) {
    this.maxPoints = maxPoints;
  }

  /** returns whether any counter value arrived */
  add(records: readonly TraceRecord[]): boolean {
    let changed = false;
    for (const r of records) {
      if (r.ph === 'X') this.latestUs = Math.max(this.latestUs, r.ts + r.dur);
      else if (r.ph === 'I') this.latestUs = Math.max(this.latestUs, r.ts);
      if (r.ph !== 'C') continue;
      this.latestUs = Math.max(this.latestUs, r.ts);
      for (const [key, value] of Object.entries(r.args)) {
        if (typeof value !== 'number' || !Number.isFinite(value)) continue;
        const id = `${r.proc}\u0000${r.name}\u0000${key}`;
        let s = this.byId.get(id);
        if (!s) this.byId.set(id, (s = { name: r.name, key, proc: r.proc, points: [] }));
        const last = s.points[s.points.length - 1];
        // batches from two processes may interleave; keep each series ordered
        if (last !== undefined && last[0] > r.ts) {
          const at = s.points.findIndex((p) => p[0] > r.ts);
          s.points.splice(at, 0, [r.ts, value]);
        } else {
          s.points.push([r.ts, value]);
        }
        if (s.points.length > this.maxPoints) halvePoints(s.points);
        changed = true;
      }
    }
    return changed;
  }

  /** a new outer array each call so a shallow ref sees the change; the point arrays are shared */
  series(): LiveCounterSeries[] {
    return [...this.byId.values()].map((s) => ({ ...s }));
  }

  reset(): void {
    this.byId.clear();
    this.latestUs = 0;
  }
}
