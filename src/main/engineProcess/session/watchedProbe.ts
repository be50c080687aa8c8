/**
 * The probe the measurement loop and the engine report through: the recorder, plus what only a
 * span's inside can see. At the end of every span, while its tensors are still alive, it asks the
 * memory sampler for a sample if one is due (the engine's timers cannot fire while wasm compute
 * holds the event loop, and at unit boundaries every tensor is already disposed). The spans open
 * now are the recorder's: it answers them, for the live timeline.
 */
import type { OpenSpan } from '../../../shared/events';
import type { DeviceSpan } from '../../engine/model';
import type { LoopRecorder } from '../measurement';

/** the recorder under the probe: the loop's recorder, which also answers what it has open */
export interface WatchedRecorder extends LoopRecorder {
  openSpans(): OpenSpan[];
}

export interface WatchedProbeOptions {
  /** called at each span end, inside the span */
  onSpanEnd?: () => void;
}

export class WatchedProbe implements LoopRecorder {
  constructor(private readonly rec: WatchedRecorder, private readonly options: WatchedProbeOptions = {}) {}

  span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T> {
    const onSpanEnd = this.options.onSpanEnd;
    if (!onSpanEnd) return this.rec.span(name, fn, args);
    return this.rec.span(name, async () => {
      const out = await fn();
      onSpanEnd();
      return out;
    }, args);
  }

  /** the spans open now, outermost first */
  openSpans(): OpenSpan[] {
    return this.rec.openSpans();
  }

  counter(name: string, values: Record<string, number>): void {
    this.rec.counter(name, values);
  }

  instant(name: string, args?: Record<string, unknown>): void {
    this.rec.instant(name, args);
  }

  progress(fraction: number, label: string): void {
    this.rec.progress(fraction, label);
  }

  flush(): void {
    this.rec.flush();
  }

  nowUs(): number {
    return this.rec.nowUs();
  }

  deviceSpans(spans: readonly DeviceSpan[], lane: string): void {
    this.rec.deviceSpans(spans, lane);
  }
}
