/**
 * Progress over a run planned as groups (one per strategy, plus local) of units (one fit + predict
 * each). The ETA is built only from measured unit durations: the current group's own warm units
 * when it has any, otherwise the mean unit time of the groups already done. Before anything has
 * been measured there is no ETA, rather than a made-up one.
 */
import type { ProgressInfo } from '../../shared/events';

export interface ProgressGroup {
  name: string;
  units: number;
}

interface GroupState {
  name: string;
  units: number;
  done: number;
  /** durations of finished units after the first (cold) one */
  warmMs: number[];
  coldMs?: number;
}

export class ProgressTracker {
  private readonly groups: GroupState[];
  private readonly totalUnits: number;
  private readonly startMs: number;
  private current = 0;
  private unitStartMs: number;
  private unitLabel = '';

  constructor(groups: readonly ProgressGroup[], private readonly nowMs: () => number = () => performance.now()) {
    this.groups = groups.map((g) => ({ name: g.name, units: Math.max(1, g.units), done: 0, warmMs: [] }));
    this.totalUnits = this.groups.reduce((s, g) => s + g.units, 0);
    this.startMs = nowMs();
    this.unitStartMs = this.startMs;
  }

  /** Starts the next unit of the named group. */
  beginUnit(group: string, label: string): void {
    const i = this.groups.findIndex((g) => g.name === group);
    if (i >= 0) this.current = i;
    this.unitStartMs = this.nowMs();
    this.unitLabel = label;
  }

  /** Closes the current unit with its measured duration. */
  endUnit(): void {
    const g = this.groups[this.current];
    if (!g) return;
    const ms = this.nowMs() - this.unitStartMs;
    if (g.done === 0) g.coldMs = ms;
    else g.warmMs.push(ms);
    g.done = Math.min(g.units, g.done + 1);
  }

  /** A group that ended early (failed strategy): its remaining units count as done, untimed. */
  skipRest(group: string): void {
    const g = this.groups.find((x) => x.name === group);
    if (g) g.done = g.units;
  }

  /** `within` is the engine's fraction of the current unit, `detail` its label. */
  snapshot(within = 0, detail = ''): ProgressInfo {
    const doneUnits = this.groups.reduce((s, g) => s + g.done, 0);
    const fraction = this.totalUnits > 0 ? Math.min(1, (doneUnits + Math.min(1, Math.max(0, within))) / this.totalUnits) : 0;
    const now = this.nowMs();
    const group = this.groups[this.current];
    const label = [group?.name, this.unitLabel, detail].filter((s) => s && s.length > 0).join(' · ');
    const info: ProgressInfo = { fraction, label, elapsedMs: now - this.startMs };
    const eta = this.etaMs(now);
    if (eta !== undefined) info.etaMs = eta;
    return info;
  }

  private etaMs(now: number): number | undefined {
    const measuredGroups = this.groups.filter((g) => g.done === g.units && (g.warmMs.length > 0 || g.coldMs !== undefined));
    const fallback = meanUnitMs(measuredGroups);
    let remaining = 0;
    for (let i = 0; i < this.groups.length; i++) {
      const g = this.groups[i]!;
      const left = g.units - g.done;
      if (left <= 0) continue;
      const own = g.warmMs.length > 0 ? mean(g.warmMs) : g.coldMs;
      const perUnit = own ?? fallback;
      if (perUnit === undefined) return undefined;
      let groupLeft = left * perUnit;
      if (i === this.current) groupLeft -= Math.min(perUnit, now - this.unitStartMs);
      remaining += Math.max(0, groupLeft);
    }
    return Math.round(remaining);
  }
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

function meanUnitMs(groups: readonly GroupState[]): number | undefined {
  const all = groups.flatMap((g) => (g.warmMs.length > 0 ? g.warmMs : g.coldMs !== undefined ? [g.coldMs] : []));
  return all.length > 0 ? mean(all) : undefined;
}
