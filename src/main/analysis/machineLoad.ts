/**
 * How busy the machine was while a strategy measured, from two readings of the operating system's
 * counters: the load averages, the machine's CPU time (Linux /proc/stat) and the measuring
 * process's own CPU time (all its threads, so the engine workers count as its own). What the
 * machine spent beyond the process is other processes' share; where the machine's CPU time cannot
 * be read, that share is left out rather than guessed.
 */
import type { MachineLoad } from '../../shared/report';
import { BUSY_OTHER_CPU_SHARE } from './thresholds';

export interface LoadReading {
  /** wall clock, ms */
  atMs: number;
  /** 1-, 5- and 15-minute load averages; empty where the OS keeps none */
  loadAverage: number[];
  /** logical cores online */
  cores: number;
  /** the machine's CPU time over all cores since boot, in the OS's ticks, where readable */
  machineTicks?: { busy: number; total: number };
  /** the measuring process's CPU time (user + system, all threads), ms */
  ownCpuMs: number;
}

/** Cores the process kept busy on average between two readings. */
function ownBusyCores(start: LoadReading, end: LoadReading): number {
  const wallMs = end.atMs - start.atMs;
  return wallMs > 0 ? Math.max(0, (end.ownCpuMs - start.ownCpuMs) / wallMs) : 0;
}

/** Other processes' share of all cores' time between two readings; undefined where it cannot be told. */
function otherCpuShare(start: LoadReading, end: LoadReading): number | undefined {
  if (!start.machineTicks || !end.machineTicks || end.cores <= 0) return undefined;
  const total = end.machineTicks.total - start.machineTicks.total;
  const wallMs = end.atMs - start.atMs;
  if (!(total > 0) || !(wallMs > 0)) return undefined;
  const machineBusy = (end.machineTicks.busy - start.machineTicks.busy) / total;
  const own = (end.ownCpuMs - start.ownCpuMs) / (wallMs * end.cores);
  return Math.min(1, Math.max(0, machineBusy - own));
}

/**
 * The load between two readings. Busy: other processes kept more of the machine than
 * BUSY_OTHER_CPU_SHARE. Only where that share cannot be read (no /proc/stat) does the 1-minute
 * load average decide, busy when the others' part of it (at the start, or at the end less what
 * this process added) exceeded the cores this process left free. The average lags by a minute and
 * counts this run's own earlier work, so on a quiet machine it can still read as busy.
 */
export function machineLoadBetween(start: LoadReading, end: LoadReading): MachineLoad {
  const own = ownBusyCores(start, end);
  const share = otherCpuShare(start, end);
  const load: MachineLoad = { loadAverageStart: start.loadAverage, loadAverageEnd: end.loadAverage, busy: false };
  if (share !== undefined) load.otherCpuShare = share;
  const first = start.loadAverage[0];
  const last = end.loadAverage[0];
  const othersLoad = Math.max(first ?? 0, last === undefined ? 0 : last - own);
  load.busy = share !== undefined ? share > BUSY_OTHER_CPU_SHARE : first !== undefined && othersLoad > end.cores - own;
  return load;
}

/** The strategies' loads as one for the run: first start, last end, the time-weighted other share, busy if any was. */
export function combineMachineLoads(parts: readonly { load: MachineLoad; durationMs: number }[]): MachineLoad | undefined {
  if (parts.length === 0) return undefined;
  const out: MachineLoad = {
    loadAverageStart: parts[0]!.load.loadAverageStart,
    loadAverageEnd: parts[parts.length - 1]!.load.loadAverageEnd,
    busy: parts.some((p) => p.load.busy),
  };
  const shared = parts.filter((p) => p.load.otherCpuShare !== undefined && p.durationMs > 0);
  const weight = shared.reduce((s, p) => s + p.durationMs, 0);
  if (weight > 0) out.otherCpuShare = shared.reduce((s, p) => s + p.load.otherCpuShare! * p.durationMs, 0) / weight;
  return out;
}
