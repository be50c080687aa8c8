/**
 * Progress over a run planned as groups (one per strategy, plus local) of units (one fit + predict
 * each). The ETA is built from measured unit durations: a group's own units when it has any;
 * otherwise, where the work model predicts the group's call (setPredicted), that prediction at the
 * pace the measured groups ran at against their own predictions (strategies differ twentyfold, so
 * a mean of other groups' units would not do); otherwise the mean unit time of the groups measured.
 * Before anything has been measured there is no ETA, rather than a made-up one.
 *
 * A group whose repeats run until stable (`--repeats auto`) has no known count: its planned units
 * cover the fewest repeats, and one more unit stands for the repeats after them, filled by the
 * share of the time budget (or of the repeat cap) used. Its ETA is the most it can still take. The
 * groups' repeats may interleave (A, B, A, B…): each group's budget counts only its own repeats.
 *
 * The units are counted, but the bar is of time wherever the ETA is known (shared/progress.ts):
 * the open unit of a group that repeats until stable is one unit and most of the run's time.
 */
import type { ProgressInfo } from '../../../shared/events';
import { progressOf } from '../../../shared/progress';

export interface ProgressGroup {
  name: string;
  units: number;
}

/** the stopping rule of `--repeats auto`, as far as progress needs it */
export interface RepeatBudget {
  /** repeats always taken, part of the group's planned units */
  minRepeats: number;
  maxRepeats: number;
  maxMs: number;
}

interface OpenEnd extends RepeatBudget {
  /** the group's first warm repeat has begun */
  repeatsStarted: boolean;
  repeatsDone: number;
  /** time in the group's own finished repeats: its budget counts these, not other groups' repeats run between them */
  repeatsMs: number;
  finished: boolean;
}

interface GroupState {
  name: string;
  units: number;
  done: number;
  /** durations of finished units after the first (cold) one */
  warmMs: number[];
  coldMs?: number;
  /** the work model's time for one of its units, in ms (a lower bound: only ratios between groups are used) */
  predictedMs?: number;
  open?: OpenEnd;
}

export class ProgressTracker {
  private readonly groups: GroupState[];
  private totalUnits: number;
  private readonly startMs: number;
  private current = 0;
  private unitStartMs: number;
  private unitLabel = '';
  /** a unit is between beginUnit and endUnit */
  private running = false;
  /** the last snapshot: the time share shown waits out a small step back (shared/progress.ts) */
  private last: ProgressInfo | undefined;

  constructor(groups: readonly ProgressGroup[], private readonly nowMs: () => number = () => performance.now()) {
    this.groups = groups.map((g) => ({ name: g.name, units: Math.max(1, g.units), done: 0, warmMs: [] }));
    this.totalUnits = this.groups.reduce((s, g) => s + g.units, 0);
    this.startMs = nowMs();
    this.unitStartMs = this.startMs;
  }

  /** The work model's time for one unit of each named group, where it has one. */
  setPredicted(predictedMs: Readonly<Record<string, number>>): void {
    for (const g of this.groups) {
      const ms = predictedMs[g.name];
      if (ms !== undefined && Number.isFinite(ms) && ms > 0) g.predictedMs = ms;
    }
  }

  /** Starts the next unit of the named group. */
  beginUnit(group: string, label: string): void {
    const i = this.groups.findIndex((g) => g.name === group);
    if (i >= 0) this.current = i;
    this.unitStartMs = this.nowMs();
    this.unitLabel = label;
    this.running = true;
  }

  /** Closes the current unit with its measured duration. */
  endUnit(): void {
    const g = this.groups[this.current];
    if (!g) return;
    const ms = this.nowMs() - this.unitStartMs;
    this.running = false;
    if (g.done === 0) g.coldMs = ms;
    else g.warmMs.push(ms);
    g.done = Math.min(g.units, g.done + 1);
    if (g.open?.repeatsStarted && !g.open.finished) {
      g.open.repeatsDone++;
      g.open.repeatsMs += ms;
    }
  }

  /**
   * The named groups repeat until stable. Called before any of them starts, so the unit added to
   * each never moves the bar backwards; a group already open-ended is left as it is.
   */
  untilStable(groups: readonly string[], budget: RepeatBudget): void {
    for (const g of this.groups) {
      if (!groups.includes(g.name) || g.open) continue;
      g.open = { ...budget, repeatsStarted: false, repeatsDone: 0, repeatsMs: 0, finished: false };
      this.totalUnits += 1;
    }
  }

  /** The group's first warm repeat begins: from now its own repeats count against its time budget. */
  beginRepeats(group: string): void {
    const open = this.groups.find((x) => x.name === group)?.open;
    if (open) open.repeatsStarted = true;
  }

  /** The group's repeats stopped (the interval is narrow enough, or a cap was reached). */
  endRepeats(group: string): void {
    const open = this.groups.find((x) => x.name === group)?.open;
    if (open) open.finished = true;
  }

  /** A group that ended early (failed strategy): its remaining units count as done, untimed. */
  skipRest(group: string): void {
    const g = this.groups.find((x) => x.name === group);
    if (!g) return;
    g.done = g.units;
    if (g.open) g.open.finished = true;
  }

  /** `within` is the engine's fraction of the current unit, `detail` its label. */
  snapshot(within = 0, detail = ''): ProgressInfo {
    const now = this.nowMs();
    const group = this.groups[this.current];
    const doneUnits = this.groups.reduce((s, g) => s + g.done + (g.open ? this.openShare(g, g.open, now) : 0), 0);
    // a repeat past the planned ones is counted by the open unit's share, not by its own progress
    const current = group && group.done < group.units ? Math.min(1, Math.max(0, within)) : 0;
    const label = [group?.name, this.unitLabel, detail].filter((s) => s && s.length > 0).join(' · ');
    const count = { done: doneUnits + current, total: this.totalUnits, unit: 'steps' };
    this.last = progressOf(label, now - this.startMs, this.etaMs(now), count, this.last);
    return this.last;
  }

  /** The group's own repeat time so far, with the repeat running now if it is the group's. */
  private ownRepeatMs(g: GroupState, open: OpenEnd, now: number): number {
    const inUnit = this.running && this.groups[this.current] === g ? now - this.unitStartMs : 0;
    return open.repeatsMs + inUnit;
  }

  /** How much of the open-ended unit is used: the larger share of the time budget or of the repeat cap. */
  private openShare(g: GroupState, open: OpenEnd, now: number): number {
    if (open.finished) return 1;
    if (!open.repeatsStarted || open.repeatsDone < open.minRepeats) return 0;
    const byTime = open.maxMs > 0 ? this.ownRepeatMs(g, open, now) / open.maxMs : 1;
    return Math.min(1, Math.max(byTime, open.repeatsDone / Math.max(1, open.maxRepeats)));
  }

  private etaMs(now: number): number | undefined {
    const measuredGroups = this.groups.filter((g) => g.done === g.units && ownUnitMs(g) !== undefined);
    const fallback = meanUnitMs(measuredGroups);
    const pace = paceAgainstModel(this.groups);
    let remaining = 0;
    for (let i = 0; i < this.groups.length; i++) {
      const g = this.groups[i]!;
      const modelled = g.predictedMs !== undefined && pace !== undefined ? g.predictedMs * pace : undefined;
      const perUnit = ownUnitMs(g) ?? modelled ?? fallback;
      const groupLeft = g.open ? this.openGroupLeftMs(g, g.open, perUnit, now) : this.plannedLeftMs(g, i, perUnit, now);
      if (groupLeft === undefined) return undefined;
      remaining += Math.max(0, groupLeft);
    }
    return Math.round(remaining);
  }

  private plannedLeftMs(g: GroupState, index: number, perUnit: number | undefined, now: number): number | undefined {
    const left = g.units - g.done;
    if (left <= 0) return 0;
    if (perUnit === undefined) return undefined;
    let groupLeft = left * perUnit;
    if (index === this.current) groupLeft -= Math.min(perUnit, now - this.unitStartMs);
    return groupLeft;
  }

  /** the units before the repeats, then the most the repeats may still take (the budget or the cap) */
  private openGroupLeftMs(g: GroupState, open: OpenEnd, perUnit: number | undefined, now: number): number | undefined {
    if (open.finished) return 0;
    if (perUnit === undefined) return undefined;
    const repeatsMostMs = Math.max(open.minRepeats * perUnit, Math.min(open.maxMs, open.maxRepeats * perUnit));
    if (open.repeatsStarted) return repeatsMostMs - this.ownRepeatMs(g, open, now);
    const beforeRepeats = Math.max(0, g.units - g.done - open.minRepeats);
    const inUnit = this.groups[this.current] === g ? Math.min(perUnit, now - this.unitStartMs) : 0;
    return Math.max(0, beforeRepeats * perUnit - inUnit) + repeatsMostMs;
  }
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** A group's measured time per unit: its warm units' mean, or its cold one while that is all there is. */
function ownUnitMs(g: GroupState): number | undefined {
  return g.warmMs.length > 0 ? mean(g.warmMs) : g.coldMs;
}

/** Measured ms per predicted ms over the groups with both: how far this machine runs from the model. */
function paceAgainstModel(groups: readonly GroupState[]): number | undefined {
  let measured = 0;
  let predicted = 0;
  for (const g of groups) {
    const own = ownUnitMs(g);
    if (own === undefined || g.predictedMs === undefined) continue;
    measured += own;
    predicted += g.predictedMs;
  }
  return predicted > 0 ? measured / predicted : undefined;
}

function meanUnitMs(groups: readonly GroupState[]): number | undefined {
  const all = groups.flatMap((g) => (g.warmMs.length > 0 ? g.warmMs : g.coldMs !== undefined ? [g.coldMs] : []));
  return all.length > 0 ? mean(all) : undefined;
}
