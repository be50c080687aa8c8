/**
 * What every measurement step shares: the loaded inputs, the recorder the engine reports through,
 * progress, the run's cancel signal, and the collector that gathers the spans of warm repeats for
 * stage times.
 */
import type { RunConfig } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import type { SpanRecord, TraceRecord } from '../../../shared/events';
import type { StageTime } from '../../../shared/report';
import { REPEAT_SPAN, STRATEGY_SPAN, WARMUP_SPAN } from '../../../shared/traceSpans';
import { RunningStageTimes } from '../../recorder';
import { throwIfCancelled, type DeviceSpan, type StrategyOptions } from '../../engine/model';
import type { StrategyProbe } from '../autoProbe';
import type { EngineProbe } from '../../engine';
import type { EngineDeps } from '../session';
import type { ProgressTracker } from './progressTracker';

/** The recorder as the loop uses it (the recorder folder's Recorder fits it). */
export interface LoopRecorder extends EngineProbe {
  flush(): void;
  nowUs(): number;
  /** spans the device timed, on a lane of their own (Recorder.deviceSpans) */
  deviceSpans(spans: readonly DeviceSpan[], lane: string): void;
}

/** The recorder folder's MemorySampler as the loop uses it. */
export interface MemoryWatch {
  markStage(name: string | undefined): void;
  sampleNow(): void;
  summary(): { stages: Record<string, { heapBytes: number; tensorBytes: number; gpuUsedBytes: number }> };
}

export interface MeasureContext {
  deps: EngineDeps;
  dataset: Dataset;
  config: RunConfig;
  options: StrategyOptions;
  /** the active backend's name: a named strategy whose estimate passes what it holds is refused before its work */
  backendName?: string;
  rec: LoopRecorder;
  tracker: ProgressTracker;
  spans: SpanCollector;
  /** the engine process's own memory counters and per-stage peaks */
  memory: MemoryWatch;
  /** sends a progress message now (unit boundaries) */
  emitProgress(): void;
  /** the run's: aborted when the service asks the run to stop */
  signal: AbortSignal;
  /** the clock calls are timed by and the repeats' time budget runs on; performance.now when absent (tests script it) */
  nowMs?: () => number;
  /** `auto`'s probe once it has run (in auto's cold call, between its fit and its predict): what it measured and what `auto` then follows; null where it had nothing to measure */
  autoProbe?: StrategyProbe | null;
}

/** The context's clock: what call timings and the stopping rule's time budget read. */
export function clockOf(ctx: Pick<MeasureContext, 'nowMs'>): () => number {
  return ctx.nowMs ?? (() => performance.now());
}

/**
 * Lets the event loop turn once. Compute never yields on its own (awaits of settled promises are
 * microtasks), so without this a cancel message, or the channel closing, would wait for the end.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Between two steps: lets a cancel message in, then stops the run if it came. */
export async function nextStep(signal: AbortSignal): Promise<void> {
  await yieldToEventLoop();
  throwIfCancelled(signal);
}

/** Spans named after the loop's own structure, which are not stages of the engine. */
const LOOP_SPANS: ReadonlySet<string> = new Set([
  'cold', WARMUP_SPAN, REPEAT_SPAN, 'kernel-profile', 'profiled call', STRATEGY_SPAN, 'local', 'run', 'load-data', 'backend-init', 'calibrate',
]);

/**
 * Keeps the engine's spans that close while collecting is on (a run's timed repeats), or, while
 * tallying, only the stage table they add up to (a decode, whose spans grow with the recording).
 */
export class SpanCollector {
  private collecting = false;
  private spans: SpanRecord[] = [];
  private tally: RunningStageTimes | null = null;

  /** Passed every batch the recorder emits. */
  observe(records: readonly TraceRecord[]): void {
    if (!this.collecting && !this.tally) return;
    for (const r of records) {
      if (r.ph !== 'X' || LOOP_SPANS.has(r.name)) continue;
      if (this.collecting) this.spans.push(r);
      this.tally?.add(r);
    }
  }

  begin(): void {
    this.spans = [];
    this.collecting = true;
  }

  end(): SpanRecord[] {
    this.collecting = false;
    const out = this.spans;
    this.spans = [];
    return out;
  }

  beginTally(): void {
    this.tally = new RunningStageTimes();
  }

  /** The stage table since beginTally; tallying stops. */
  endTally(): StageTime[] {
    const table = this.tally?.table() ?? [];
    this.tally = null;
    return table;
  }
}
