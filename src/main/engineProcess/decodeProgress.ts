/**
 * Progress of a decode run on one bar: loading takes the first tenth, fitting the second, decoding
 * the rest, or, with a posterior, all but its last sixth, which the filter and smoother take.
 * While decoding, the ETA is the rows still to go at the pace of the rows done so far;
 * the other phases have none rather than a made-up one.
 */
import type { ProgressInfo } from '../../shared/events';

export type DecodePhase = 'loading' | 'fitting' | 'decoding' | 'posterior';

const BAR_OF_PHASE: Record<DecodePhase, [number, number]> = { loading: [0, 0.1], fitting: [0.1, 0.2], decoding: [0.2, 1], posterior: [1, 1] };
const BAR_WITH_POSTERIOR: Record<DecodePhase, [number, number]> = { ...BAR_OF_PHASE, decoding: [0.2, 0.85], posterior: [0.85, 1] };

export class DecodeProgress {
  private phase: DecodePhase = 'loading';
  private readonly startMs: number;
  private phaseStartMs: number;

  private readonly bar: Record<DecodePhase, [number, number]>;

  constructor(
    private readonly nowMs: () => number = () => performance.now(),
    withPosterior = false,
  ) {
    this.bar = withPosterior ? BAR_WITH_POSTERIOR : BAR_OF_PHASE;
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
    const info: ProgressInfo = {
      fraction: from + (to - from) * done,
      label: detail ? `${this.phase} ${detail}` : this.phase,
      elapsedMs: now - this.startMs,
    };
    if ((this.phase === 'decoding' || this.phase === 'posterior') && done > 0) info.etaMs = Math.round(((now - this.phaseStartMs) * (1 - done)) / done);
    return info;
  }
}
