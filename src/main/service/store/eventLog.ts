/**
 * Appends a run's trace batches to events.ndjson as they arrive, one JSON array per line, so
 * whatever was recorded survives the engine dying at any moment. The first write that fails (a
 * full disk, a folder made read-only) is reported at once, not when the log closes: a run that
 * can no longer record must stop now rather than compute for minutes into a trace that is lost.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { AppError } from '../../../shared/errors';
import type { TraceRecord } from '../../../shared/events';
import { ndjsonLine } from '../../export';
import { RunsFolderError, storeWriteError } from './storeErrors';

/** Opens the stream a log appends to; tests inject one that fails like a full disk. */
export type OpenEventStream = (path: string) => Writable;

export const openEventFile: OpenEventStream = (path) => createWriteStream(path, { flags: 'a' });

export interface EventLogOptions {
  /** called once, with the first write error, as soon as it happens */
  onFailure?: (error: NodeJS.ErrnoException) => void;
  openStream?: OpenEventStream;
}

export class EventLog {
  private readonly stream: Writable;
  private closed = false;
  private failed: NodeJS.ErrnoException | undefined;
  count = 0;

  constructor(readonly path: string, private readonly options: EventLogOptions = {}) {
    this.stream = (options.openStream ?? openEventFile)(path);
    this.stream.on('error', (e) => this.fail(e));
  }

  /** the first write error, if any: everything appended after it was dropped */
  get failure(): NodeJS.ErrnoException | undefined {
    return this.failed;
  }

  append(records: readonly TraceRecord[]): void {
    if (this.closed || this.failed || records.length === 0) return;
    this.count += records.length;
    // the callback sees a failed write even where a stream reports it nowhere else
    this.stream.write(ndjsonLine(records), (e) => {
      if (e) this.fail(e);
    });
  }

  /**
   * Resolves when everything appended is on disk, or at once after a write failed (what was
   * written before the failure stays). Never rejects: the failure went to onFailure already.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.failed) {
      this.stream.destroy();
      return;
    }
    await new Promise<void>((resolve) => {
      this.stream.once('error', () => resolve());
      this.stream.end(() => resolve());
    });
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = e;
    this.options.onFailure?.(e);
  }
}

/**
 * Why a run stopped when its events.ndjson could not be written. A runs folder that is not
 * writable, or a full disk, is said in the run store's own words (storeWriteError), so a person
 * reads the same sentence whichever write met it first; anything else names the file.
 */
export function eventLogError(e: NodeJS.ErrnoException, runsDir: string, eventsPath: string): AppError {
  const stopped = 'The run was stopped; what was recorded before stays in its folder.';
  const folderError = storeWriteError(e, runsDir);
  if (folderError instanceof RunsFolderError) {
    return new AppError('IO', `${folderError.message} ${stopped}`, { file: eventsPath, hint: folderError.location?.hint });
  }
  return new AppError('IO', `could not write ${eventsPath} in the runs folder ${runsDir}: ${e.message}. ${stopped}`, {
    file: eventsPath, hint: 'check that the runs folder exists, is writable and has space',
  });
}
