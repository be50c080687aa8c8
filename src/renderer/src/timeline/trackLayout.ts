/**
 * The timeline's tracks, the way Perfetto lays them out: a header per process, a track per thread
 * with its nested spans stacked inside (one row per depth, flame-chart style), and the electrode
 * lanes split from a thread gathered in a group that collapses to one summary row. Tracks have
 * fixed heights and are stacked top to bottom; the canvas scrolls through them.
 */
import { laneIdOf, type TimelineLane } from '../../../shared/api';
import { electrodeLabel } from '../../../shared/traceSpans';

/** one nesting depth inside a track */
export const ROW_PX = 18;
/** space above and below a track's rows */
export const TRACK_PAD_PX = 3;
/** a header's height (process, electrode group) */
export const HEADER_PX = 22;

export type TrackKind = 'process' | 'thread' | 'electrode-group' | 'electrode';

export interface Track {
  /** lane id for a thread or electrode; `process:<name>` or `electrodes:<thread lane>` for headers */
  id: string;
  kind: TrackKind;
  label: string;
  /** the label's tooltip where it says more than the label (an electrode's index in the dataset) */
  title?: string;
  /** nesting in the tree, for the label's indent */
  indent: number;
  /** lanes whose spans this track draws (a collapsed electrode group draws all its lanes' depth 0) */
  lanes: string[];
  /** lanes an area drawn over this track covers: a header stands for everything under it */
  areaLanes: string[];
  /** rows of spans; 0 for an expanded header */
  depths: number;
  collapsible: boolean;
  collapsed: boolean;
  top: number;
  height: number;
}

export interface LaneTree {
  process: string;
  threads: { lane: TimelineLane; electrodes: TimelineLane[] }[];
}

/** the id of the thread's lane a lane is on: its own, or for an electrode lane the one it was split from */
export const threadLaneOf = (lane: TimelineLane): string => laneIdOf({ process: lane.process, thread: lane.thread });

/** lanes as processes › threads › electrodes, in the service's lane order */
export function laneTree(lanes: readonly TimelineLane[]): LaneTree[] {
  const procs = new Map<string, LaneTree>();
  const threads = new Map<string, LaneTree['threads'][number]>();
  for (const lane of lanes) {
    let p = procs.get(lane.process);
    if (!p) procs.set(lane.process, (p = { process: lane.process, threads: [] }));
    const threadId = threadLaneOf(lane);
    let t = threads.get(threadId);
    if (!t) {
      // an electrode lane whose thread drew nothing itself still gets its thread's track
      t = { lane: lane.electrode ? { id: threadId, name: threadName(lane), process: lane.process, thread: lane.thread } : lane, electrodes: [] };
      threads.set(threadId, t);
      p.threads.push(t);
    }
    if (lane.electrode) t.electrodes.push(lane);
    else t.lane = lane;
  }
  return [...procs.values()];
}

/** a process header's words where its role alone would say too little; others show their role */
const PROCESS_LABELS: Record<string, string> = { external: 'external engines' };
export const processLabel = (proc: string): string => PROCESS_LABELS[proc] ?? proc;

export const processGroupId = (proc: string): string => `process:${proc}`;
export const electrodeGroupId = (threadLane: string): string => `electrodes:${threadLane}`;

/** the label without the names its headers already say ("engine · main" → "main") */
function shortName(name: string, parent: string): string {
  return name.startsWith(`${parent} · `) ? name.slice(parent.length + 3) : name;
}

/** An electrode lane's label: the dataset's name for it where the trace gave one. */
export function electrodeLaneLabel(lane: TimelineLane): string {
  if (lane.electrode) return electrodeLabel(lane.electrode.index, lane.electrode.name);
  // lanes of a service that did not say which electrode: the name after the thread's
  const cut = lane.name.lastIndexOf(' · ');
  return cut >= 0 ? lane.name.slice(cut + 3) : lane.name;
}

/** The thread an electrode lane was split from, by name: its own name without the electrode's label. */
function threadName(lane: TimelineLane): string {
  const label = electrodeLaneLabel(lane);
  return lane.name.endsWith(` · ${label}`) ? lane.name.slice(0, -(label.length + 3)) : lane.name;
}

const titleOf = (title: string | undefined): { title?: string } => (title === undefined ? {} : { title });

/** The tooltip of an electrode's track: where it sits in the dataset, which the name alone does not say. */
function electrodeLaneTitle(lane: TimelineLane): string | undefined {
  if (!lane.electrode) return undefined;
  const { index, name } = lane.electrode;
  return name === undefined ? `electrode index ${index} in the dataset` : `${name}: electrode index ${index} in the dataset`;
}

export interface LayoutInput {
  lanes: readonly TimelineLane[];
  /** rows each lane needs: its deepest span + 1 (at least 1) */
  depthOf: (laneId: string) => number;
  /** whether a group is collapsed; groups are process and electrode-group ids */
  isCollapsed: (groupId: string) => boolean;
}

const trackHeight = (depths: number): number => depths * ROW_PX + 2 * TRACK_PAD_PX;

export function layoutTracks(input: LayoutInput): Track[] {
  const out: Track[] = [];
  let top = 0;
  const push = (t: Omit<Track, 'top' | 'height'>): void => {
    const height = t.depths === 0 ? HEADER_PX : trackHeight(t.depths);
    out.push({ ...t, top, height });
    top += height;
  };
  for (const proc of laneTree(input.lanes)) {
    const allLanes = proc.threads.flatMap((t) => [t.lane.id, ...t.electrodes.map((e) => e.id)]);
    const procId = processGroupId(proc.process);
    const procCollapsed = input.isCollapsed(procId);
    push({ id: procId, kind: 'process', label: processLabel(proc.process), indent: 0, lanes: [], areaLanes: allLanes, depths: 0, collapsible: true, collapsed: procCollapsed });
    if (procCollapsed) continue;
    for (const thread of proc.threads) {
      const threadLanes = [thread.lane.id, ...thread.electrodes.map((e) => e.id)];
      push({
        id: thread.lane.id, kind: 'thread', label: shortName(thread.lane.name, proc.process), indent: 1, lanes: [thread.lane.id],
        areaLanes: threadLanes, depths: Math.max(1, input.depthOf(thread.lane.id)), collapsible: false, collapsed: false,
      });
      if (thread.electrodes.length === 0) continue;
      const groupId = electrodeGroupId(thread.lane.id);
      const electrodeIds = thread.electrodes.map((e) => e.id);
      const collapsed = input.isCollapsed(groupId);
      const label = `${thread.electrodes.length} electrode${thread.electrodes.length === 1 ? '' : 's'}`;
      // collapsed: one row with every electrode's outermost spans, so the group's busy time still shows
      push({ id: groupId, kind: 'electrode-group', label, indent: 2, lanes: collapsed ? electrodeIds : [], areaLanes: electrodeIds, depths: collapsed ? 1 : 0, collapsible: true, collapsed });
      if (collapsed) continue;
      for (const e of thread.electrodes) {
        push({
          id: e.id, kind: 'electrode', label: electrodeLaneLabel(e), ...titleOf(electrodeLaneTitle(e)), indent: 3, lanes: [e.id], areaLanes: [e.id],
          depths: Math.max(1, input.depthOf(e.id)), collapsible: false, collapsed: false,
        });
      }
    }
  }
  return out;
}

export const contentHeight = (tracks: readonly Track[]): number => (tracks.length ? tracks[tracks.length - 1]!.top + tracks[tracks.length - 1]!.height : 0);

/**
 * Groups collapsed when nothing was chosen yet: electrode groups fold when everything expanded
 * would be taller than the viewport, so 128 electrodes open as a few readable tracks.
 */
export function defaultCollapsed(input: Omit<LayoutInput, 'isCollapsed'>, viewportPx: number): Set<string> {
  const expanded = layoutTracks({ ...input, isCollapsed: () => false });
  if (contentHeight(expanded) <= viewportPx) return new Set();
  return new Set(expanded.filter((t) => t.kind === 'electrode-group').map((t) => t.id));
}

/** the track under a y inside the content (tracks are sorted by top) */
export function trackAt(tracks: readonly Track[], y: number): Track | null {
  let lo = 0;
  let hi = tracks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tracks[mid]!;
    if (y < t.top) hi = mid - 1;
    else if (y >= t.top + t.height) lo = mid + 1;
    else return t;
  }
  return null;
}

/** the nesting depth a y inside a track points at; null on its padding or a header */
export function depthAt(track: Track, y: number): number | null {
  if (track.depths === 0) return null;
  const d = Math.floor((y - track.top - TRACK_PAD_PX) / ROW_PX);
  return d >= 0 && d < track.depths ? d : null;
}

/** lanes an area from y0 to y1 covers, in track order, each once */
export function lanesBetween(tracks: readonly Track[], y0: number, y1: number): string[] {
  const [lo, hi] = y0 <= y1 ? [y0, y1] : [y1, y0];
  const lanes = new Set<string>();
  for (const t of tracks) if (t.top + t.height > lo && t.top < hi) for (const l of t.areaLanes) lanes.add(l);
  return [...lanes];
}
