/**
 * When a live run's pages hear that its timeline changed: at the first batch after a quiet spell
 * at once, then at most every NOTICE_INTERVAL_MS however many batches arrive (the engine's, the
 * service's own, the RSS sampler's at 20 Hz), each notice saying everything since the last. A page
 * asks for its timeline at most every 250 ms and draws its memory graph from the counter points, so
 * a notice every 100 ms loses it nothing.
 */
import type { TimelineChange } from './timelineChanges';

export const NOTICE_INTERVAL_MS = 100;

export interface LiveNoticesOptions {
  /** what changed since the last call (LiveTimeline.takeChanges) */
  take: () => TimelineChange[];
  send: (change: TimelineChange) => void;
  intervalMs?: number;
  nowMs?: () => number;
  /** send nothing until release(): a run's pages hear that it runs before they hear of its timeline */
  held?: boolean;
}

export class LiveNotices {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sentAtMs = -Infinity;
  private readonly intervalMs: number;
  private readonly nowMs: () => number;
  private held: boolean;

  constructor(private readonly options: LiveNoticesOptions) {
    this.intervalMs = options.intervalMs ?? NOTICE_INTERVAL_MS;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.held = options.held ?? false;
  }

  /** the timeline took records: a notice goes out now, or when the interval since the last is up */
  changed(): void {
    if (this.held || this.timer !== undefined) return;
    const waitMs = this.sentAtMs + this.intervalMs - this.nowMs();
    if (waitMs <= 0) return this.flush();
    this.timer = setTimeout(() => this.flush(), waitMs);
    // a pending notice must not keep a finished service alive
    this.timer.unref?.();
  }

  /** Ends the hold: what changed while held goes out now, the rest as changed() spaces it. */
  release(): void {
    this.held = false;
    this.flush();
  }

  /** Sends what changed now, held or not (before the run's final status, so a page's last notice comes before it). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const changes = this.options.take();
    if (changes.length === 0) return;
    this.sentAtMs = this.nowMs();
    for (const change of changes) this.options.send(change);
  }
}
