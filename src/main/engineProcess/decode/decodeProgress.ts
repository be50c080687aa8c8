/**
 * Progress of a decode run on one bar: loading takes the first tenth, fitting the second, decoding
 * the rest; with a posterior the filter and smoother take the last tenth, and the detector's Local
 * likelihood a third of the bar before them (measured on a production window: likelihood 46 s,
 * local 27 s, filter and smoother 3 s). While decoding, computing the local likelihood or filtering,
 * the ETA is what is left of the phase at the pace of what is done, plus the timed phases still to
 * come at the time that phase's whole is projected to take, scaled by those same measured shares
 * (the local likelihood about 0.6 of the likelihood, the posterior about 0.07). The untimed phases
 * (loading, fitting) have no ETA rather than a made-up one: there the progress counts phases
 * (shared/progress.ts), and once an ETA is known its share is of time.
 */
import type { PosteriorModel } from '../../../shared/config';
import type { ProgressInfo } from '../../../shared/events';
import { progressOf } from '../../../shared/progress';

export type DecodePhase = 'loading' | 'fitting' | 'decoding' | 'local' | 'posterior';

type Bar = Record<DecodePhase, [number, number]>;

const BAR_OF_PHASE: Bar = { loading: [0, 0.1], fitting: [0.1, 0.2], decoding: [0.2, 1], local: [1, 1], posterior: [1, 1] };
const BAR_WITH_DECODER: Bar = { ...BAR_OF_PHASE, decoding: [0.2, 0.9], local: [0.9, 0.9], posterior: [0.9, 1] };
const BAR_WITH_DETECTOR: Bar = { ...BAR_OF_PHASE, decoding: [0.2, 0.6], local: [0.6, 0.9], posterior: [0.9, 1] };
const TIMED_PHASES: readonly DecodePhase[] = ['decoding', 'local', 'posterior'];
/** seconds each timed phase took on the production window above: only their ratios are used */
const MEASURED_SECONDS: Record<'decoding' | 'local' | 'posterior', number> = { decoding: 46, local: 27, posterior: 3 };

export class DecodeProgress {
  private phase: DecodePhase = 'loading';
  private readonly startMs: number;
  private phaseStartMs: number;

  private readonly bar: Bar;
  /** the timed phases this decode goes through, in order: those with a part of its bar */
  private readonly timed: readonly DecodePhase[];
  /** the last snapshot: the time share shown waits out a small step back (shared/progress.ts) */
  private last: ProgressInfo | undefined;

  constructor(
    private readonly nowMs: () => number = () => performance.now(),
    posterior?: PosteriorModel,
  ) {
    this.bar = posterior === 'detector' ? BAR_WITH_DETECTOR : posterior === 'decoder' ? BAR_WITH_DECODER : BAR_OF_PHASE;
    this.timed = TIMED_PHASES.filter((p) => this.bar[p][1] > this.bar[p][0]);
    this.startMs = nowMs();
    this.phaseStartMs = this.startMs;
  }

  enter(phase: DecodePhase): void {
    this.phase = phase;
    this.phaseStartMs = this.nowMs();
  }

  /** `within` is the engine's fraction of the current phase, `detail` its label. */
  snapshot(within = 0, detail = ''): ProgressInfo {
    const [from, to] = this.bar[this.phase];
    const done = Math.min(1, Math.max(0, within));
    const now = this.nowMs();
    const label = detail ? `${this.phase} ${detail}` : this.phase;
    const eta = TIMED_PHASES.includes(this.phase) && done > 0 ? Math.round(this.etaMs(now - this.phaseStartMs, done)) : undefined;
    // the phases this decode goes through, counted where no ETA is known (loading, fitting)
    const phases = (Object.keys(this.bar) as DecodePhase[]).filter((p) => p === 'loading' || p === 'fitting' || this.timed.includes(p));
    const at = Math.max(0, phases.indexOf(this.phase));
    this.last = progressOf(label, now - this.startMs, eta, { done: at + (to > from ? done : 0), total: phases.length, unit: 'phases' }, this.last);
    return this.last;
  }

  /** what is left of this phase at its pace, then each later timed phase at its measured share of this one */
  private etaMs(phaseMs: number, done: number): number {
    const wholePhaseMs = phaseMs / done;
    const current = this.phase as keyof typeof MEASURED_SECONDS;
    const at = this.timed.indexOf(this.phase);
    // a phase this decode was not expected to go through has nothing known to follow it
    const later = (at < 0 ? [] : this.timed.slice(at + 1)) as (keyof typeof MEASURED_SECONDS)[];
    const laterMs = later.reduce((sum, p) => sum + (wholePhaseMs * MEASURED_SECONDS[p]) / MEASURED_SECONDS[current], 0);
    return wholePhaseMs * (1 - done) + laterMs;
  }
}
