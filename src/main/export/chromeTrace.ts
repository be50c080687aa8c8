/**
 * The Chrome Trace Event export (shared/spec/trace-format.md §6): object form, M events first,
 * X/C/I events after, otherData last. The file is written one event per line through a stream
 * (gzip when asked), so a trace of a million events never exists as one string.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { TraceRecord } from '../../shared/events';
import { AppError } from '../../shared/errors';
import { normalizeTrace, type ChromeEvent, type TraceStats } from './traceNormalize';

export interface TraceMeta {
  app?: string;
  version?: string;
  runId?: string;
  [key: string]: unknown;
}

export interface ChromeTraceFile {
  traceEvents: ChromeEvent[];
  otherData: Record<string, unknown>;
}

export interface WriteTraceOptions {
  /** gzip the file; defaults to true when the path ends in .gz */
  gzip?: boolean;
}

const CHUNK_CHARS = 1 << 16;

function otherDataOf(meta: TraceMeta, stats: TraceStats): Record<string, unknown> {
  return { app: 'kde-profiler', ...meta, traceStats: stats };
}

/** args may carry values JSON cannot write (bigint); those become strings instead of failing the export */
function eventJson(ev: ChromeEvent): string {
  try {
    return JSON.stringify(ev);
  } catch {
    return JSON.stringify(ev, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}

/** The whole trace as an object: for small traces and tests. */
export function buildChromeTrace(records: Iterable<TraceRecord>, meta: TraceMeta): ChromeTraceFile {
  const trace = normalizeTrace(records);
  const traceEvents = [...trace.metadata];
  for (const ev of trace.events()) traceEvents.push(ev);
  return { traceEvents, otherData: otherDataOf(meta, trace.stats) };
}

async function collect(records: Iterable<TraceRecord> | AsyncIterable<TraceRecord>): Promise<Iterable<TraceRecord>> {
  if (Symbol.iterator in records) return records;
  const out: TraceRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

async function writeAll(out: Writable, chunks: Iterable<string>): Promise<void> {
  let pending = '';
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length >= CHUNK_CHARS) {
      const ok = out.write(pending);
      pending = '';
      if (!ok) await once(out, 'drain');
    }
  }
  if (pending) out.write(pending);
}

function* traceText(metadata: ChromeEvent[], events: Iterable<ChromeEvent>, otherData: () => object): Generator<string> {
  yield '{"traceEvents":[\n';
  let first = true;
  for (const ev of metadata) {
    yield (first ? '' : ',\n') + eventJson(ev);
    first = false;
  }
  for (const ev of events) {
    yield (first ? '' : ',\n') + eventJson(ev);
    first = false;
  }
  yield `\n],\n"otherData":${JSON.stringify(otherData())}}\n`;
}

/**
 * Writes the trace to `path` (via a temporary file renamed at the end, so a failed export never
 * leaves a truncated trace behind). Returns what the normalization counted.
 */
export async function writeChromeTrace(
  path: string,
  records: Iterable<TraceRecord> | AsyncIterable<TraceRecord>,
  meta: TraceMeta,
  options: WriteTraceOptions = {},
): Promise<TraceStats> {
  const gzip = options.gzip ?? path.endsWith('.gz');
  const trace = normalizeTrace(await collect(records));
  // unique per export, so two exports of one run to the same path cannot interleave
  const tmpPath = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}.partial`;
  const file = createWriteStream(tmpPath);
  const zip = gzip ? createGzip() : undefined;
  if (zip) zip.pipe(file);
  const out: Writable = zip ?? file;
  try {
    const failed = new Promise<never>((_, reject) => {
      file.once('error', reject);
      zip?.once('error', reject);
    });
    failed.catch(() => undefined);
    await Promise.race([writeAll(out, traceText(trace.metadata, trace.events(), () => otherDataOf(meta, trace.stats))), failed]);
    out.end();
    await Promise.race([finished(file), failed]);
    await rename(tmpPath, path);
  } catch (e) {
    file.destroy();
    zip?.destroy();
    await rm(tmpPath, { force: true });
    throw new AppError('IO', `could not write the trace to ${path}: ${e instanceof Error ? e.message : String(e)}. Check that the folder exists and is writable.`, { file: path });
  }
  return trace.stats;
}
