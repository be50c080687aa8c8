/**
 * The trace recorder: nested spans, counters and instants on one monotonic time base (see
 * clock.ts), buffered into batches for the process boundary. It implements the engine's
 * EngineProbe, so the engine reports through it without knowing it exists.
 *
 * Spans nest through an explicit stack: the engine is sequential, so whatever span is open when
 * another starts is its parent, awaits included. Times are kept as integer nanoseconds since the
 * origin and written as µs with at most 3 decimals, so a consumer that rounds to ns (Perfetto,
 * trace-check) sees exactly the ends we compared.
 */
import type { CounterRecord, InstantRecord, ProcessRole, SpanRecord, ThreadNameRecord, TraceRecord } from '../../shared/events';
import type { EngineProbe } from '../engine/types';
import { BatchSink, type BatchListener } from './batchSink';
import { hrtimeNowNs, parseOriginNs, type MonotonicNowNs } from './clock';

export const MAIN_TID = 1;

export interface RecorderOptions {
  proc: ProcessRole;
  /** `process.hrtime.bigint()` at run start, taken by the service and passed down (string form crosses IPC) */
  originNs?: bigint | string;
  /** added to every timestamp, for a peer whose clock is not this machine's monotonic clock */
  clockOffsetUs?: number;
  /** receives each batch; without it records are retained and read with takeRecords() */
  onBatch?: BatchListener;
  onProgress?: (fraction: number, label: string) => void;
  /** --no-trace: spans only call their function, nothing is recorded */
  disabled?: boolean;
  /** category written on spans and instants; defaults to the process role */
  cat?: string;
  laneName?: string;
  flushIntervalMs?: number;
  maxBatchRecords?: number;
  nowNs?: MonotonicNowNs;
}

interface Frame {
  name: string;
  startNs: number;
  /** -1 while open */
  endNs: number;
  args: Record<string, unknown> | undefined;
  parent: Frame | undefined;
}

/** State every lane of one recorder shares: clock, sink, cancel flag. */
interface Core {
  proc: ProcessRole;
  cat: string;
  disabled: boolean;
  originNs: bigint;
  offsetNs: number;
  nowNs: MonotonicNowNs;
  sink: BatchSink;
  retained: TraceRecord[];
  onProgress: ((fraction: number, label: string) => void) | undefined;
  cancelRequested: boolean;
  nextTid: number;
  deviceSync: (() => Promise<void>) | undefined;
}

/** Lanes are created only through lane(); the key is not exported, so options cannot forge one. */
const LANE_OF = Symbol('laneOf');
interface LaneOptions extends RecorderOptions {
  [LANE_OF]?: { core: Core; tid: number };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Recorder implements EngineProbe {
  readonly tid: number;
  private readonly core: Core;
  private readonly stack: Frame[] = [];

  constructor(options: RecorderOptions) {
    const lane = (options as LaneOptions)[LANE_OF];
    this.tid = lane ? lane.tid : MAIN_TID;
    if (lane) {
      this.core = lane.core;
    } else {
      const retained: TraceRecord[] = [];
      const nowNs = options.nowNs ?? hrtimeNowNs;
      this.core = {
        proc: options.proc,
        cat: options.cat ?? options.proc,
        disabled: options.disabled === true,
        originNs: parseOriginNs(options.originNs, nowNs),
        offsetNs: Math.round((options.clockOffsetUs ?? 0) * 1000),
        nowNs,
        retained,
        sink: new BatchSink({
          onBatch: options.onBatch ?? ((batch) => void retained.push(...batch)),
          intervalMs: options.flushIntervalMs,
          maxRecords: options.maxBatchRecords,
        }),
        onProgress: options.onProgress,
        cancelRequested: false,
        nextTid: MAIN_TID + 1,
        deviceSync: undefined,
      };
    }
    if (!this.core.disabled) {
      const meta: ThreadNameRecord = {
        ph: 'M', proc: this.core.proc, tid: this.tid, name: 'thread_name', args: { name: options.laneName ?? 'main' },
      };
      this.core.sink.push(meta);
    }
  }

  get disabled(): boolean {
    return this.core.disabled;
  }

  /** Another named lane (tid) of this process, sharing clock, sink and cancel flag. */
  lane(name: string): Recorder {
    const tid = this.core.nextTid++;
    const options: LaneOptions = { proc: this.core.proc, laneName: name, [LANE_OF]: { core: this.core, tid } };
    return new Recorder(options);
  }

  /** Awaited at every span end, so spans on asynchronous backends measure work, not dispatch. */
  setDeviceSync(sync: (() => Promise<void>) | undefined): void {
    this.core.deviceSync = sync;
  }

  /** Microseconds since the origin, ns resolution. */
  nowUs(): number {
    return this.relNs() / 1000;
  }

  async span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T> {
    if (this.core.disabled) return fn();
    const frame: Frame = { name, startNs: this.relNs(), endNs: -1, args, parent: this.stack[this.stack.length - 1] };
    this.stack.push(frame);
    let result: T;
    try {
      result = await fn();
      if (this.core.deviceSync) await this.core.deviceSync();
    } catch (e) {
      this.closeFrame(frame, { error: errorMessage(e) });
      throw e;
    }
    this.closeFrame(frame, undefined);
    return result;
  }

  counter(name: string, values: Record<string, number>): void {
    if (this.core.disabled) return;
    const rec: CounterRecord = { ph: 'C', proc: this.core.proc, name, ts: this.relNs() / 1000, args: { ...values } };
    this.core.sink.push(rec);
  }

  instant(name: string, args?: Record<string, unknown>, scope: 't' | 'p' | 'g' = 't'): void {
    if (this.core.disabled) return;
    const rec: InstantRecord = {
      ph: 'I', proc: this.core.proc, tid: this.tid, name, cat: this.core.cat, ts: this.relNs() / 1000, s: scope,
    };
    if (args !== undefined) rec.args = args;
    this.core.sink.push(rec);
  }

  progress(fraction: number, label: string): void {
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
    this.core.onProgress?.(f, label);
  }

  cancelled(): boolean {
    return this.core.cancelRequested;
  }

  requestCancel(): void {
    this.core.cancelRequested = true;
  }

  /** Sends what is buffered now (before a process exits, or when a run ends). */
  flush(): void {
    this.core.sink.flush();
  }

  /** Closes spans still open on this lane (marked unfinished), then flushes. */
  close(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const frame = this.stack[i];
      if (frame) this.closeFrame(frame, { unfinished: true });
    }
    this.flush();
  }

  /** Records held when no onBatch listener was given; empties the buffer. */
  takeRecords(): TraceRecord[] {
    this.core.sink.flush();
    return this.core.retained.splice(0, this.core.retained.length);
  }

  get depth(): number {
    return this.stack.length;
  }

  private relNs(): number {
    return Number(this.core.nowNs() - this.core.originNs) + this.core.offsetNs;
  }

  private closeFrame(frame: Frame, extra: Record<string, unknown> | undefined): void {
    if (frame.endNs >= 0) return;
    let endNs = this.relNs();
    // a child that outlives its parent (work not awaited inside it) is cut at the parent's end
    const parentEnd = frame.parent ? frame.parent.endNs : -1;
    if (parentEnd >= 0 && endNs > parentEnd) endNs = parentEnd;
    const startNs = Math.min(frame.startNs, endNs);
    frame.endNs = endNs;
    if (this.stack[this.stack.length - 1] === frame) this.stack.pop();
    else {
      const i = this.stack.lastIndexOf(frame);
      if (i >= 0) this.stack.splice(i, 1);
    }
    const rec: SpanRecord = {
      ph: 'X', proc: this.core.proc, tid: this.tid, name: frame.name, cat: this.core.cat,
      ts: startNs / 1000, dur: (endNs - startNs) / 1000,
    };
    if (frame.args !== undefined || extra !== undefined) rec.args = { ...frame.args, ...extra };
    this.core.sink.push(rec);
  }
}
