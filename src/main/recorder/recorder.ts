/**
 * The trace recorder: nested spans, counters and instants on one monotonic time base (see
 * clock.ts), buffered into batches for the process boundary. It implements the engine's
 * EngineProbe, so the engine reports through it without knowing it exists.
 *
 * Spans nest through an explicit stack: the engine is sequential, so whatever span is open when
 * another starts is its parent, awaits included. The stack is also the one list of the spans open
 * now, which a live timeline draws before the trace holds them. Times are kept as integer nanoseconds since the
 * origin and written as µs with at most 3 decimals, so a consumer that rounds to ns (Perfetto,
 * trace-check) sees exactly the ends we compared.
 */
import type { CounterRecord, InstantRecord, OpenSpan, ProcessRole, SpanRecord, ThreadNameRecord, TraceRecord } from '../../shared/events';
import type { DeviceSpan, EngineProbe } from '../engine/model';
import { BatchSink, type BatchListener } from './batchSink';
import { hrtimeNowNs, parseOriginNs, type MonotonicNowNs } from './clock';

export const MAIN_TID = 1;
/** the lane of the device's own spans (GPU kernels on its clock), apart from the host threads and the pool's workers */
export const DEVICE_TID = 1000;

export interface RecorderOptions {
  proc: ProcessRole;
  /** `process.hrtime.bigint()` at run start, taken by the service and passed down (string form crosses IPC) */
  originNs?: bigint | string;
  /** receives each batch; without it records are retained and read with takeRecords() */
  onBatch?: BatchListener;
  onProgress?: (fraction: number, label: string) => void;
  /** --no-trace: spans only call their function, nothing is recorded */
  disabled?: boolean;
  /** category written on spans and instants; defaults to the process role */
  cat?: string;
  laneName?: string;
  /** the thread lane (default MAIN_TID): each engine pool worker records on a lane of its own */
  tid?: number;
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

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Recorder implements EngineProbe {
  readonly tid: number;
  readonly disabled: boolean;
  private readonly proc: ProcessRole;
  private readonly cat: string;
  private readonly originNs: bigint;
  private readonly nowNs: MonotonicNowNs;
  private readonly sink: BatchSink;
  private readonly retained: TraceRecord[] = [];
  private readonly onProgress: ((fraction: number, label: string) => void) | undefined;
  private readonly stack: Frame[] = [];
  private deviceLane: string | null = null;
  /** where the device lane's last span ended: its spans never overlap */
  private deviceEndNs = -Infinity;

  constructor(options: RecorderOptions) {
    this.proc = options.proc;
    this.tid = options.tid ?? MAIN_TID;
    this.cat = options.cat ?? options.proc;
    this.disabled = options.disabled === true;
    this.nowNs = options.nowNs ?? hrtimeNowNs;
    this.originNs = parseOriginNs(options.originNs, this.nowNs);
    this.onProgress = options.onProgress;
    this.sink = new BatchSink({
      onBatch: options.onBatch ?? ((batch) => void this.retained.push(...batch)),
      intervalMs: options.flushIntervalMs,
      maxRecords: options.maxBatchRecords,
    });
    if (!this.disabled) {
      const meta: ThreadNameRecord = {
        ph: 'M', proc: this.proc, tid: this.tid, name: 'thread_name', args: { name: options.laneName ?? 'main' },
      };
      this.sink.push(meta);
    }
  }

  /** Microseconds since the origin, ns resolution. */
  nowUs(): number {
    return this.relNs() / 1000;
  }

  async span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T> {
    if (this.disabled) return fn();
    const frame: Frame = { name, startNs: this.relNs(), endNs: -1, args, parent: this.stack[this.stack.length - 1] };
    this.stack.push(frame);
    let result: T;
    try {
      result = await fn();
    } catch (e) {
      this.closeFrame(frame, { error: errorMessage(e) });
      throw e;
    }
    this.closeFrame(frame, undefined);
    return result;
  }

  counter(name: string, values: Record<string, number>): void {
    if (this.disabled) return;
    const rec: CounterRecord = { ph: 'C', proc: this.proc, name, ts: this.relNs() / 1000, args: { ...values } };
    this.sink.push(rec);
  }

  instant(name: string, args?: Record<string, unknown>, scope: 't' | 'p' | 'g' = 't'): void {
    if (this.disabled) return;
    const rec: InstantRecord = {
      ph: 'I', proc: this.proc, tid: this.tid, name, cat: this.cat, ts: this.relNs() / 1000, s: scope,
    };
    if (args !== undefined) rec.args = args;
    this.sink.push(rec);
  }

  /**
   * Spans the device timed (DeviceSpan: a GPU's kernels on the host's clock), on a lane of their
   * own named `lane`, beside the host spans that issued them. A span that would start before the
   * lane's last one ended starts at that end (the device runs one kernel after another).
   */
  deviceSpans(spans: readonly DeviceSpan[], lane: string): void {
    if (this.disabled || spans.length === 0) return;
    if (this.deviceLane !== lane) {
      this.deviceLane = lane;
      this.sink.push({ ph: 'M', proc: this.proc, tid: DEVICE_TID, name: 'thread_name', args: { name: lane } });
    }
    for (const span of spans) {
      const startNs = Math.max(Number(span.startNs - this.originNs), this.deviceEndNs);
      const endNs = Math.max(Number(span.endNs - this.originNs), startNs);
      this.deviceEndNs = endNs;
      this.sink.push({ ph: 'X', proc: this.proc, tid: DEVICE_TID, name: span.name, cat: 'gpu', ts: startNs / 1000, dur: (endNs - startNs) / 1000 });
    }
  }

  progress(fraction: number, label: string): void {
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
    this.onProgress?.(f, label);
  }

  /** Sends what is buffered now (before a process exits, or when a run ends). */
  flush(): void {
    this.sink.flush();
  }

  /** Closes spans still open (marked unfinished), then flushes. */
  close(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const frame = this.stack[i];
      if (frame) this.closeFrame(frame, { unfinished: true });
    }
    this.flush();
  }

  /** Records held when no onBatch listener was given; empties the buffer. */
  takeRecords(): TraceRecord[] {
    this.sink.flush();
    return this.retained.splice(0, this.retained.length);
  }

  get depth(): number {
    return this.stack.length;
  }

  /** the spans begun and not yet ended, outermost first */
  openSpans(): OpenSpan[] {
    return this.stack.map((frame) => {
      const open: OpenSpan = { proc: this.proc, tid: this.tid, name: frame.name, startUs: frame.startNs / 1000 };
      if (frame.args !== undefined) open.args = frame.args;
      return open;
    });
  }

  private relNs(): number {
    return Number(this.nowNs() - this.originNs);
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
      ph: 'X', proc: this.proc, tid: this.tid, name: frame.name, cat: this.cat,
      ts: startNs / 1000, dur: (endNs - startNs) / 1000,
    };
    if (frame.args !== undefined || extra !== undefined) rec.args = { ...frame.args, ...extra };
    this.sink.push(rec);
  }
}
