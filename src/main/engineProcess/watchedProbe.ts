/**
 * The probe the measurement loop and the engine report through: the recorder, plus two things
 * only a span's inside can see. At the end of every span, while its tensors are still alive, it
 * asks the memory sampler for a sample if one is due (the engine's timers cannot fire while wasm
 * compute holds the event loop, and at unit boundaries every tensor is already disposed). And it
 * keeps the spans that are open now, for the live timeline.
 */
import type { ProcessRole } from '../../shared/events';
import type { LoopRecorder } from './measureContext';
import type { OpenSpan } from '../engineProtocol';

export interface WatchedProbeOptions {
  proc: ProcessRole;
  /** the recorder's lane */
  tid: number;
  /** called at each span end, inside the span */
  onSpanEnd?: () => void;
}

export class WatchedProbe implements LoopRecorder {
  private readonly open: OpenSpan[] = [];

  constructor(private readonly rec: LoopRecorder, private readonly options: WatchedProbeOptions) {}

  span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T> {
    return this.rec.span(
      name,
      async () => {
        // taken inside the recorder's span, so it never starts before the span the trace will hold
        const frame: OpenSpan = { proc: this.options.proc, tid: this.options.tid, name, startUs: this.rec.nowUs() };
        if (args !== undefined) frame.args = args;
        this.open.push(frame);
        try {
          const out = await fn();
          this.options.onSpanEnd?.();
          return out;
        } finally {
          const i = this.open.lastIndexOf(frame);
          if (i >= 0) this.open.splice(i, 1);
        }
      },
      args,
    );
  }

  /** the spans open now, outermost first */
  openSpans(): OpenSpan[] {
    return this.open.slice();
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
}
