/**
 * Reads a run's events.ndjson back: one line per batch, each a JSON array of trace records (a
 * single record object per line is accepted too). A process killed mid-write leaves a truncated
 * last line; that line is skipped and reported, never fatal, because a partial trace of a failed
 * run must stay exportable.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { TraceRecord } from '../../shared/events';
import { AppError } from '../../shared/errors';
import { isTraceRecord } from './traceRecords';

export interface NdjsonReadResult {
  records: TraceRecord[];
  /** lines that parsed */
  batches: number;
  /** lines that did not parse or held no array/object */
  badLines: number;
  /** the final line was cut short (a writer died mid-line) */
  truncatedTail: boolean;
  /** parsed entries that were not trace records */
  invalidRecords: number;
}

function parseLine(line: string): unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(line);
    if (Array.isArray(v)) return v as unknown[];
    if (typeof v === 'object' && v !== null) return [v];
  } catch {
    // reported by the caller as a bad line
  }
  return undefined;
}

/** the longest line read: a batch is a few hundred KB; a longer line (a run of NUL bytes left by a power loss) is skipped as bad */
export const MAX_NDJSON_LINE_BYTES = 64 * 2 ** 20;
/** absent on Windows, where opening a pipe does not wait and links are rare */
const NO_WAIT_NO_LINK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Opens the events file without following a link or waiting on a pipe; regular files only. */
async function openEvents(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_WAIT_NO_LINK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AppError('NOT_FOUND', `trace events file ${path} does not exist: the run recorded no events or its folder was moved.`, { file: path });
    // a link is a refusal of the file as it is (exit 2, like any refused file); anything else is the machine's
    const refused = code === 'ELOOP' ? 'BAD_ARGUMENT' : 'IO';
    throw new AppError(refused, `trace events file ${path} cannot be read (${code === 'ELOOP' ? 'it is a symbolic link' : code ?? String(e)}): delete the run, or replace the file.`, { file: path });
  }
  const s = await handle.stat();
  if (!s.isFile()) {
    await handle.close();
    throw new AppError('BAD_ARGUMENT', `trace events file ${path} is not a regular file (a pipe or a device): delete the run, or replace the file.`, { file: path });
  }
  return handle;
}

/** Splits bytes into lines of at most `maxBytes`; a longer line is given as null, without holding it. */
async function* boundedLines(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<string | null> {
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  for await (const chunk of chunks) {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, from); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, nl);
      yield overlong || held + piece.length > maxBytes ? null : Buffer.concat([...parts, piece]).toString('utf8');
      parts = [];
      held = 0;
      overlong = false;
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    if (overlong || held + rest.length > maxBytes) {
      overlong = true;
      parts = [];
      held = 0;
    } else if (rest.length > 0) {
      parts.push(Buffer.from(rest));
      held += rest.length;
    }
  }
  if (overlong) yield null;
  else if (held > 0) yield Buffer.concat(parts).toString('utf8');
}

function addLine(result: NdjsonReadResult, raw: string | null): boolean {
  const line = raw?.trim();
  if (line === '') return result.truncatedTail;
  const entries = line === undefined ? undefined : parseLine(line);
  if (!entries) {
    result.badLines++;
    return true;
  }
  result.batches++;
  for (const e of entries) {
    if (isTraceRecord(e)) result.records.push(e);
    else result.invalidRecords++;
  }
  return false;
}

/**
 * The trace records of an events file. A line longer than `maxLineBytes` is skipped and counted
 * bad without being held; a link, a pipe or a device is refused without waiting on it.
 */
export async function readNdjsonRecords(path: string, maxLineBytes = MAX_NDJSON_LINE_BYTES): Promise<NdjsonReadResult> {
  const handle = await openEvents(path);
  const result: NdjsonReadResult = { records: [], batches: 0, badLines: 0, truncatedTail: false, invalidRecords: 0 };
  try {
    for await (const line of boundedLines(handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>, maxLineBytes)) {
      // the last non-empty line decides whether the tail was cut short
      result.truncatedTail = addLine(result, line);
    }
  } finally {
    await handle.close();
  }
  return result;
}

/** One batch as the line readNdjsonRecords expects (what a writer appends to events.ndjson). */
export function ndjsonLine(records: readonly TraceRecord[]): string {
  return `${JSON.stringify(records)}\n`;
}
