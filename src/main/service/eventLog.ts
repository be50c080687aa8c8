/**
 * Appends a run's trace batches to events.ndjson as they arrive, one JSON array per line, so
 * whatever was recorded survives the engine dying at any moment.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { TraceRecord } from '../../shared/events';
import { ndjsonLine } from '../export';

export class EventLog {
  private readonly stream: WriteStream;
  private closed = false;
  private failure: Error | undefined;
  count = 0;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path, { flags: 'a' });
    this.stream.on('error', (e) => {
      this.failure = e;
    });
  }

  append(records: readonly TraceRecord[]): void {
    if (this.closed || records.length === 0) return;
    this.count += records.length;
    this.stream.write(ndjsonLine(records));
  }

  /** Resolves when everything appended is on disk. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.stream.end(() => resolve()));
    if (this.failure) throw this.failure;
  }
}
