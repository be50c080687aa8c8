/**
 * Per-stage time from recorded spans: calls, total time, and self time (total minus the time of
 * direct children), and the work its spans say they did (args.work, added up) when every one of them
 * says so: a stage where some spans counted and others did not would otherwise look as if it did
 * less work than it did. Nesting is rebuilt per (process, lane) from the times in integer ns, the
 * way trace viewers see it, so the numbers match what the timeline shows.
 */
import type { SpanRecord } from '../../shared/events';
import type { CountedWork, StageTime } from '../../shared/report';

interface Open {
  stat: StageTime;
  endNs: number;
  childNs: number;
  durNs: number;
}

const toNs = (us: number): number => Math.round(us * 1000);

const WORK_KEYS = ['gemmFlops', 'otherFlops', 'exps', 'logs', 'bytes', 'streamBytes'] as const;

/** A span's args.work when every figure is a finite number ≥ 0, else undefined. */
function countedWork(v: unknown): CountedWork | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const w = v as Record<string, unknown>;
  return WORK_KEYS.every((k) => typeof w[k] === 'number' && Number.isFinite(w[k]) && w[k] >= 0) ? (v as CountedWork) : undefined;
}

function addCounted(a: CountedWork, b: CountedWork): CountedWork {
  return Object.fromEntries(WORK_KEYS.map((k) => [k, a[k] + b[k]])) as unknown as CountedWork;
}

/** Stages by total time, largest first. */
export function stageTimes(spans: Iterable<SpanRecord>): StageTime[] {
  const lanes = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const key = `${s.proc}|${s.tid}`;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = []));
    lane.push(s);
  }
  const byName = new Map<string, StageTime>();
  /** stages with a span that did not count its work */
  const uncounted = new Set<string>();
  const statOf = (name: string): StageTime => {
    let st = byName.get(name);
    if (!st) byName.set(name, (st = { name, calls: 0, totalMs: 0, selfMs: 0 }));
    return st;
  };
  const closeTop = (stack: Open[]): void => {
    const top = stack.pop()!;
    top.stat.selfMs += Math.max(0, top.durNs - top.childNs) / 1e6;
  };

  for (const lane of lanes.values()) {
    const items = lane
      .map((s) => ({ s, startNs: toNs(s.ts), durNs: Math.max(0, toNs(s.dur)) }))
      .sort((a, b) => a.startNs - b.startNs || b.durNs - a.durNs);
    const stack: Open[] = [];
    for (const { s, startNs, durNs } of items) {
      while (stack.length > 0 && stack[stack.length - 1]!.endNs <= startNs) closeTop(stack);
      const parent = stack[stack.length - 1];
      // a child is charged to its parent only for the part inside it
      if (parent) parent.childNs += Math.min(startNs + durNs, parent.endNs) - startNs;
      const stat = statOf(s.name);
      stat.calls++;
      stat.totalMs += durNs / 1e6;
      const counted = countedWork(s.args?.work);
      if (counted) stat.work = stat.work ? addCounted(stat.work, counted) : counted;
      else uncounted.add(s.name);
      stack.push({ stat, endNs: startNs + durNs, childNs: 0, durNs });
    }
    while (stack.length > 0) closeTop(stack);
  }
  for (const name of uncounted) delete byName.get(name)!.work;
  return [...byName.values()].sort((a, b) => b.totalMs - a.totalMs || a.name.localeCompare(b.name));
}
