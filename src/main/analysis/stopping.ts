/**
 * When the warm repeats of one strategy stop. Without a rule: after the asked count. With
 * `--repeats auto`: after at least that count, as soon as the bootstrap 95 % interval of the
 * median is within ±relativeCi of it (half its width, as a share of the median), else when the
 * repeats reach the cap, else when one more repeat would end past the time budget.
 */
import type { StoppingRule } from '../../shared/config';
import type { TimingStats } from '../../shared/report';
import { medianCi95, relativeHalfWidth } from './bootstrap';
import { median } from './stats';

export type StopReason = NonNullable<TimingStats['stoppedBy']>;

export interface RepeatState {
  /** the warm samples so far (total per call: the figure strategies are ranked by) */
  samplesMs: readonly number[];
  /** wall time since the first warm repeat began */
  elapsedMs: number;
}

export interface RepeatJudgement {
  /** why the repeats stop now; undefined to take one more */
  stop?: StopReason;
  /** the median interval's half-width as a share of the median, where the rule computed one */
  halfWidth?: number;
}

/** Whether to stop, with the precision reached (computed once, for the progress label too). */
export function judgeRepeats(minRepeats: number, rule: StoppingRule | undefined, state: RepeatState): RepeatJudgement {
  const n = state.samplesMs.length;
  if (!rule) return n < minRepeats ? {} : { stop: 'repeats' };
  const m = median(state.samplesMs);
  const ci = medianCi95(state.samplesMs);
  const halfWidth = ci ? relativeHalfWidth(ci, m) : undefined;
  const judged = (stop?: StopReason): RepeatJudgement => (halfWidth === undefined ? { stop } : { stop, halfWidth });
  if (n < minRepeats) return judged();
  if (halfWidth !== undefined && halfWidth <= rule.relativeCi) return judged('precision');
  if (n >= rule.maxRepeats) return judged('max-repeats');
  // the median repeat is the best guess at the next one; stopping before it keeps within the budget
  const nextMs = Number.isFinite(m) ? m : 0;
  if (state.elapsedMs + nextMs > rule.maxTimeS * 1000) return judged('time');
  return judged();
}

/** Why the repeats stop now, or undefined to take one more. */
export function stopReason(minRepeats: number, rule: StoppingRule | undefined, state: RepeatState): StopReason | undefined {
  return judgeRepeats(minRepeats, rule, state).stop;
}

/** The interval's half-width as a share of the median, for labels and findings; undefined without an interval. */
export function precisionOf(t: Pick<TimingStats, 'ci95' | 'medianMs'>): number | undefined {
  return t.ci95 ? relativeHalfWidth(t.ci95, t.medianMs) : undefined;
}
