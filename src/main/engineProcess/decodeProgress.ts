/**
 * Progress of a decode run on one bar: loading takes the first tenth, fitting the second, decoding
 * the rest. While decoding, the ETA is the rows still to go at the pace of the rows done so far;
 * the other phases have none rather than a made-up one.
 */
import type { ProgressInfo } from '../../shared/events';

export type DecodePhase = 'loading' | 'fitting' | 'decoding';

const BAR_OF_PHASE: Record<DecodePhase, [number, number]> = { loading: [0, 0.1], fitting: [0.1, 0.2], decoding: [0.2, 1] };

export class DecodeProgress {
  private phase: DecodePhase = 'loading';
  private readonly startMs: number;
  private phaseStartMs: number;

  constructor(private readonly nowMs: () => number = () => performance.now()) {
    this.startMs = nowMs();
    this.phaseStartMs = this.startMs;
  }

  enter(phase: DecodePhase): void {
    this.phase = phase;
    this.phaseStartMs = this.nowMs();
  }

  /** `within` is the engine's fraction of the current phase, `detail` its label. */
  snapshot(within = 0, detail = ''): ProgressInfo {
    const [from, to] = BAR_OF_PHASE[this.phase];
    const done = Math.min(1, Math.max(0, within));
    const now = this.nowMs();
    const info: ProgressInfo = {
      fraction: from + (to - from) * done,
      label: detail ? `${this.phase} ${detail}` : this.phase,
      elapsedMs: now - this.startMs,
    };
    if (this.phase === 'decoding' && done > 0) info.etaMs = Math.round(((now - this.phaseStartMs) * (1 - done)) / done);
    return info;
  }
}
