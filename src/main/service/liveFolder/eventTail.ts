/**
 * The end of another process's events.ndjson, read as it grows: each read takes what was appended
 * since the previous one, at most maxReadBytes of it, and hands back the trace records of the
 * complete lines; a line still being written waits for its end. Memory stays bounded: a line
 * longer than maxLineBytes is skipped without being held, as the file's reader skips it
 * (export/ndjsonRecords.ts). A link, a pipe, or a file that shrank (replaced under it) ends the tail.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { TraceRecord } from '../../../shared/events';
import { isTraceRecord } from '../../export';

export interface EventTailLimits {
  /** the most one read takes in: a long backlog (a run followed late) comes in over several reads */
  maxReadBytes: number;
  /** a batch is a few hundred KB; a longer line is skipped */
  maxLineBytes: number;
}

export const EVENT_TAIL_LIMITS: EventTailLimits = { maxReadBytes: 8 * 2 ** 20, maxLineBytes: 16 * 2 ** 20 };

/** absent on Windows, where opening a pipe does not wait and links are rare */
const NO_WAIT_NO_LINK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function recordsOf(line: string): TraceRecord[] {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return [];
  }
  const entries = Array.isArray(v) ? (v as unknown[]) : [v];
  return entries.filter(isTraceRecord);
}

export class EventTail {
  private offset = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private skippingLine = false;
  private ended = false;

  constructor(readonly path: string, private readonly limits: EventTailLimits = EVENT_TAIL_LIMITS) {}

  /** What was appended since the last read; `more` when the file holds more than one read took. */
  async read(): Promise<{ records: TraceRecord[]; more: boolean }> {
    if (this.ended) return { records: [], more: false };
    const chunk = await this.nextChunk();
    if (!chunk) return { records: [], more: false };
    return { records: this.take(chunk.bytes), more: chunk.more };
  }

  private async nextChunk(): Promise<{ bytes: Buffer; more: boolean } | undefined> {
    let handle;
    try {
      handle = await open(this.path, constants.O_RDONLY | NO_WAIT_NO_LINK);
    } catch (e) {
      // not there yet (a run that has recorded nothing); anything else (a link) ends the tail
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.ended = true;
      return undefined;
    }
    try {
      const s = await handle.stat();
      if (!s.isFile() || s.size < this.offset) {
        this.ended = true;
        return undefined;
      }
      const length = Math.min(s.size - this.offset, this.limits.maxReadBytes);
      if (length === 0) return undefined;
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, this.offset);
      this.offset += bytesRead;
      return { bytes: bytes.subarray(0, bytesRead), more: this.offset < s.size };
    } finally {
      await handle.close();
    }
  }

  /** The records of the lines this chunk completes; the rest is held for the next read. */
  private take(bytes: Buffer): TraceRecord[] {
    const records: TraceRecord[] = [];
    let from = 0;
    for (let nl = bytes.indexOf(0x0a, from); nl >= 0; nl = bytes.indexOf(0x0a, from)) {
      const piece = bytes.subarray(from, nl);
      if (!this.skippingLine && this.partialBytes + piece.length <= this.limits.maxLineBytes) {
        // one by one: a batch of a hundred thousand records would overflow a spread's arguments
        for (const r of recordsOf(Buffer.concat([...this.partial, piece]).toString('utf8'))) records.push(r);
      }
      this.partial = [];
      this.partialBytes = 0;
      this.skippingLine = false;
      from = nl + 1;
    }
    const rest = bytes.subarray(from);
    if (this.skippingLine || this.partialBytes + rest.length > this.limits.maxLineBytes) {
      this.skippingLine = true;
      this.partial = [];
      this.partialBytes = 0;
    } else if (rest.length > 0) {
      this.partial.push(Buffer.from(rest));
      this.partialBytes += rest.length;
    }
    return records;
  }
}
