/**
 * Per-stage time from recorded spans: calls, total time, and self time (total minus the time of
 * direct children), and the work its spans say they did (args.work, added up) when every one of them
 * says so: a stage where some spans counted and others did not would otherwise look as if it did
 * less work than it did; likewise the device's counts (args.gpu on webgpu). Nesting is rebuilt per (process, lane) from the times in integer ns, the
 * way trace viewers see it, so the numbers match what the timeline shows. The electrode spans all
 * share one name; their stage also keeps its time per electrode, read from the spans' args.
 */
import type { SpanRecord } from '../../shared/events';
import type { CountedWork, ElectrodeStageTime, StageGpuActivity, StageTime } from '../../shared/report';
import { electrodeIndexOf } from '../../shared/traceSpans';

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

const GPU_KEYS = ['dispatches', 'pipelines', 'readBytes'] as const;

/** A span's args.gpu (the webgpu stage spans' device counts) when every count is an integer ≥ 0, else undefined. */
function gpuActivityOf(v: unknown): StageGpuActivity | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const g = v as Record<string, unknown>;
  return GPU_KEYS.every((k) => Number.isInteger(g[k]) && (g[k] as number) >= 0)
    ? { dispatches: g.dispatches as number, pipelines: g.pipelines as number, readBytes: g.readBytes as number }
    : undefined;
}

/** A span's lane: nesting is per (process, lane). */
const laneKey = (s: SpanRecord): string => `${s.proc}|${s.tid}`;

/** Calls, total time and counted work per stage name; self time is the caller's to add. */
class StageTally {
  private readonly byName = new Map<string, StageTime>();
  /** stages with a span that did not count its work */
  private readonly uncounted = new Set<string>();
  /** stages with a span that carried no device counts */
  private readonly ungpu = new Set<string>();
  /** per stage name, time per electrode index, for spans that stand for one electrode */
  private readonly perElectrode = new Map<string, Map<number, ElectrodeStageTime>>();

  /** One span of `durNs`: its stage's row, for the caller to add the span's self time to. */
  record(s: SpanRecord, durNs: number): StageTime {
    let stat = this.byName.get(s.name);
    if (!stat) this.byName.set(s.name, (stat = { name: s.name, calls: 0, totalMs: 0, selfMs: 0 }));
    stat.calls++;
    stat.totalMs += durNs / 1e6;
    const counted = countedWork(s.args?.work);
    if (counted) stat.work = stat.work ? addCounted(stat.work, counted) : counted;
    else this.uncounted.add(s.name);
    const gpu = gpuActivityOf(s.args?.gpu);
    if (gpu) stat.gpu = stat.gpu ? { dispatches: stat.gpu.dispatches + gpu.dispatches, pipelines: stat.gpu.pipelines + gpu.pipelines, readBytes: stat.gpu.readBytes + gpu.readBytes } : gpu;
    else this.ungpu.add(s.name);
    const electrode = electrodeIndexOf(s.name, s.args);
    if (electrode >= 0) this.addElectrode(s.name, electrode, durNs);
    return stat;
  }

  private addElectrode(name: string, electrode: number, durNs: number): void {
    let byIndex = this.perElectrode.get(name);
    if (!byIndex) this.perElectrode.set(name, (byIndex = new Map<number, ElectrodeStageTime>()));
    let row = byIndex.get(electrode);
    if (!row) byIndex.set(electrode, (row = { electrode, calls: 0, totalMs: 0 }));
    row.calls++;
    row.totalMs += durNs / 1e6;
  }

  /** The stages so far, by total time, largest first; work only where every span counted it. */
  table(): StageTime[] {
    const out = [...this.byName.values()].map((st) => {
      const copy = { ...st };
      if (this.uncounted.has(st.name)) delete copy.work;
      if (this.ungpu.has(st.name)) delete copy.gpu;
      const byIndex = this.perElectrode.get(st.name);
      if (byIndex) copy.byElectrode = [...byIndex.values()].map((r) => ({ ...r })).sort((a, b) => a.electrode - b.electrode);
      return copy;
    });
    return out.sort((a, b) => b.totalMs - a.totalMs || a.name.localeCompare(b.name));
  }
}

/** Stages by total time, largest first. */
export function stageTimes(spans: Iterable<SpanRecord>): StageTime[] {
  const lanes = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const key = laneKey(s);
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = []));
    lane.push(s);
  }
  const tally = new StageTally();
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
      stack.push({ stat: tally.record(s, durNs), endNs: startNs + durNs, childNs: 0, durNs });
    }
    while (stack.length > 0) closeTop(stack);
  }
  return tally.table();
}

interface Closed {
  startNs: number;
  endNs: number;
}

/**
 * The same table as stageTimes, kept up to date span by span instead of from every span at the
 * end, so that a decode of any length holds a few numbers per stage rather than its spans. A span
 * closes after the spans inside it, so when one arrives its direct children are the spans of its
 * lane that closed within it and no span has claimed yet: the tail of the lane's unclaimed list,
 * whatever came before it having started earlier. This assumes what the engine's spans are, nested
 * on each lane and passed in the order they close; on such spans it gives stageTimes' numbers.
 */
export class RunningStageTimes {
  private readonly tally = new StageTally();
  /** per lane, the spans closed on it that no span closed since contains, in close order */
  private readonly unclaimed = new Map<string, Closed[]>();

  add(s: SpanRecord): void {
    const key = laneKey(s);
    let list = this.unclaimed.get(key);
    if (!list) this.unclaimed.set(key, (list = []));
    const startNs = toNs(s.ts);
    const durNs = Math.max(0, toNs(s.dur));
    const endNs = startNs + durNs;
    let childNs = 0;
    while (list.length > 0 && list[list.length - 1]!.startNs >= startNs && list[list.length - 1]!.endNs <= endNs) {
      const child = list.pop()!;
      childNs += child.endNs - child.startNs;
    }
    list.push({ startNs, endNs });
    this.tally.record(s, durNs).selfMs += Math.max(0, durNs - childNs) / 1e6;
  }

  /** The stages so far, by total time, largest first. */
  table(): StageTime[] {
    return this.tally.table();
  }
}
