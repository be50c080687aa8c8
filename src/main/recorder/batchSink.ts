/**
 * Buffers trace records and hands them on in batches, so a span costs an array push rather than
 * a message. A batch leaves when it reaches `maxRecords`, when `intervalMs` has passed since the
 * last flush (checked on every push, because a timer cannot fire while wasm compute holds the event
 * loop), from an idle timer, or on `flush()`.
 */
import type { TraceRecord } from '../../shared/events';

export type BatchListener = (records: TraceRecord[]) => void;

export interface BatchSinkOptions {
  onBatch: BatchListener;
  intervalMs?: number;
  maxRecords?: number;
  /** wall clock in ms, injectable for tests */
  nowMs?: () => number;
}

export const DEFAULT_FLUSH_INTERVAL_MS = 50;
export const DEFAULT_MAX_BATCH_RECORDS = 500;

export class BatchSink {
  private buffer: TraceRecord[] = [];
  private lastFlushMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly onBatch: BatchListener;
  private readonly intervalMs: number;
  private readonly maxRecords: number;
  private readonly nowMs: () => number;

  constructor(options: BatchSinkOptions) {
    this.onBatch = options.onBatch;
    this.intervalMs = options.intervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.maxRecords = options.maxRecords ?? DEFAULT_MAX_BATCH_RECORDS;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.lastFlushMs = this.nowMs();
  }

  push(record: TraceRecord): void {
    if (this.closed) return;
    this.buffer.push(record);
    if (this.buffer.length >= this.maxRecords || this.nowMs() - this.lastFlushMs >= this.intervalMs) {
      this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.intervalMs);
      // a pending batch must not keep a finished process alive; close() flushes it
      this.timer.unref?.();
    }
  }

  /** Hands everything buffered to the listener now. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.lastFlushMs = this.nowMs();
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.onBatch(batch);
  }

  /** Flushes and stops accepting records. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  get pending(): number {
    return this.buffer.length;
  }
}
