/**
 * Reads a run's events.ndjson back: one line per batch, each a JSON array of trace records (a
 * single record object per line is accepted too). A process killed mid-write leaves a truncated
 * last line; that line is skipped and reported, never fatal, because a partial trace of a failed
 * run must stay exportable.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
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

export async function readNdjsonRecords(path: string): Promise<NdjsonReadResult> {
  try {
    await access(path);
  } catch {
    throw new AppError('NOT_FOUND', `trace events file ${path} does not exist: the run recorded no events or its folder was moved.`, { file: path });
  }
  const result: NdjsonReadResult = { records: [], batches: 0, badLines: 0, truncatedTail: false, invalidRecords: 0 };
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lastLineBad = false;
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const entries = parseLine(line);
    lastLineBad = entries === undefined;
    if (!entries) {
      result.badLines++;
      continue;
    }
    result.batches++;
    for (const e of entries) {
      if (isTraceRecord(e)) result.records.push(e);
      else result.invalidRecords++;
    }
  }
  result.truncatedTail = lastLineBad;
  return result;
}

/** One batch as the line readNdjsonRecords expects (what a writer appends to events.ndjson). */
export function ndjsonLine(records: readonly TraceRecord[]): string {
  return `${JSON.stringify(records)}\n`;
}
