/**
 * A run's progress, said once for every front door: the engine process makes it, the terminal line
 * and the app's bar read it, and a page another process serves reads the same from the run's
 * folder. Wherever the time left can be estimated, the fraction is of time (elapsed ÷ (elapsed +
 * time left)): 30 % means about 30 % of the run's wall time is behind it, whatever its steps weigh.
 * Steps do not weigh alike: under `--repeats auto` a strategy's repeats until stable are one step
 * and most of its time, so a count of steps read 87 % at a third of the run. Until the time left
 * can be told (nothing measured yet), the fraction counts the planned steps and the reading says
 * so ("3 of 17 steps"), never as a percentage that would read as time.
 */

/** what a progress's fraction measures: the share of the run's time, or of its counted steps */
export type ProgressBasis = 'time' | 'count';

/** what a run counts while its time left is unknown: how many of its planned steps are done */
export interface ProgressCount {
  /** may hold a part of the step under way */
  done: number;
  total: number;
  /** the plural noun of what is counted: "steps", "phases" */
  unit: string;
}

export interface ProgressInfo {
  /** 0..1 over the whole run, of what `basis` says */
  fraction: number;
  /** what is happening now, e.g. "compensated · decode · repeat 2/3 · electrode 5/16" */
  label: string;
  /** estimated time left, when it can be told honestly */
  etaMs?: number;
  elapsedMs: number;
  /** absent in progress saved before the basis was said: read as a share of the run */
  basis?: ProgressBasis;
  /** the steps done of those planned, whichever the basis */
  count?: ProgressCount;
}

/** A time-based fraction stays short of the end while steps remain: an estimate of none left does not finish them. */
const RUNNING_TIME_CAP = 0.999;
/**
 * How far below the share shown a new estimate may fall and the bar still wait for it. A bar
 * that would be held back further would read as time no longer (50 % beside 9 min left at 1.5
 * min), so it follows the estimate instead.
 */
const MAX_HELD_STEP_BACK = 0.05;

/**
 * The progress of a run `elapsedMs` into it with `etaMs` left (undefined: not known yet) and
 * `count` of its steps done. `previous`, the last progress of the same run: where the time left is
 * estimated again a little longer (a step slower than expected), the time fraction waits rather
 * than stepping back.
 */
export function progressOf(label: string, elapsedMs: number, etaMs: number | undefined, count: ProgressCount, previous?: ProgressInfo): ProgressInfo {
  const total = Math.max(0, count.total);
  const counted: ProgressCount = { done: Math.min(total, Math.max(0, count.done)), total, unit: count.unit };
  const timed = previous?.basis === 'time' ? previous : undefined;
  let left = etaMs !== undefined && Number.isFinite(etaMs) && etaMs >= 0 && elapsedMs + etaMs > 0 ? etaMs : undefined;
  // a step whose time is not known yet (a phase just begun) keeps the last estimate, counted down,
  // rather than going back to counting steps: the reading would flap between the two
  if (left === undefined && timed?.etaMs !== undefined) left = Math.max(0, timed.etaMs - (elapsedMs - timed.elapsedMs));
  if (left === undefined || elapsedMs + left <= 0) return { fraction: total > 0 ? counted.done / total : 0, label, elapsedMs, basis: 'count', count: counted };
  const byTime = Math.min(counted.done < total ? RUNNING_TIME_CAP : 1, elapsedMs / (elapsedMs + left));
  const shown = timed?.fraction ?? 0;
  // a small step back is the estimate's noise and the bar waits; a large one is news it shows
  const fraction = byTime >= shown - MAX_HELD_STEP_BACK ? Math.max(byTime, shown) : byTime;
  return { fraction, label, etaMs: Math.round(left), elapsedMs, basis: 'time', count: counted };
}

export interface ProgressReading {
  /** how much of the bar is filled, 0..1 */
  fill: number;
  /** the share as a percentage, to a tenth; null where the fraction counts steps */
  percent: number | null;
  /** what the bar says it measures: "45 %", or "3 of 17 steps" */
  share: string;
  /** the time left, only where the progress estimated it */
  etaMs: number | undefined;
}

/** How a person reads a progress, the same on the terminal and in the app. */
export function readProgress(p: ProgressInfo): ProgressReading {
  const fill = Math.min(1, Math.max(0, Number.isFinite(p.fraction) ? p.fraction : 0));
  const etaMs = p.etaMs !== undefined && Number.isFinite(p.etaMs) && p.etaMs >= 0 ? p.etaMs : undefined;
  if (p.basis === 'count' && p.count && p.count.total > 0) {
    const done = Math.floor(Math.min(p.count.total, Math.max(0, p.count.done)));
    return { fill, percent: null, share: `${done} of ${p.count.total} ${p.count.unit}`, etaMs };
  }
  // floored: a run not done never reads 100 %
  const percent = Math.floor(fill * 1000) / 10;
  return { fill, percent, share: `${Math.floor(percent)} %`, etaMs };
}

/** A wall time for a person: "less than a second", "51 s", "4 min 52 s", "2 h 05 min"; whole seconds, since finer is noise. */
export function formatWallTime(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 1) return 'less than a second';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** The time left as both front doors say it: "about 4 min 52 s left"; empty where none was estimated. */
export function timeLeftText(etaMs: number | undefined): string {
  if (etaMs === undefined) return '';
  const t = formatWallTime(etaMs);
  return t === '' ? '' : t === 'less than a second' ? 'less than a second left' : `about ${t} left`;
}

/** "at 16 % (logsumexp-tiled · repeat 3/10)": where a run that ended early was, under a status that says it ended */
export function stoppedShareText(p: ProgressInfo): string {
  const { share } = readProgress(p);
  return p.label ? `at ${share} (${p.label})` : `at ${share}`;
}

/**
 * How far a run that ended early got, as every run list and the run's own page say it: "stopped
 * at 16 % (logsumexp-tiled · repeat 3/10)", from the last progress it saved.
 */
export function stoppedAtText(p: ProgressInfo): string {
  return `stopped ${stoppedShareText(p)}`;
}
