/**
 * A run's files as downloadable bytes: the trace (gzip or plain JSON) and the report in JSON,
 * Markdown or CSV; and several runs' traces as one Perfetto bundle. A trace missing from the
 * folder (an older run, a failed write) is rebuilt from events.ndjson and kept there; on a
 * read-only (or full) runs folder it is rebuilt in the system's temporary folder and not kept, so
 * exporting never needs to write the runs folder.
 */
import { access, constants, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_ALIGNMENTS, type BundleAlignment, type ExportFormat, type RunDetail } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import type { Report } from '../../../shared/report';
import { gunzipBounded, gzipDeclaredSize, MAX_TRACE_GZ_BYTES, MAX_TRACE_JSON_BYTES, readUntrustedFile } from '../../data';
import { PLAIN_TRACE_FILE, RUN_FILES } from '../../engineProtocol';
import { buildPerfettoBundle, bundleRunOf, renderReportCsv, renderReportMarkdown, type BundleRun } from '../../export';
import { buildTraceFile, writeTraceFromEvents } from './runFiles';
import type { RunStore } from './runStore';
import { writeProblemOf } from './storeErrors';

/** the most a report file (.md, .csv, .json) may hold to be exported */
const MAX_REPORT_BYTES = 32 * 2 ** 20;

/** A file of the run's folder, refused when it is a link, not a regular file, or larger than `maxBytes`. */
function runFileBytes(store: RunStore, runId: string, name: string, maxBytes: number): Promise<Uint8Array> {
  return readUntrustedFile(store.file(runId, name), { maxBytes, within: store.runsDir, fix: `the run's ${name} is not one it wrote; delete the run or the file` });
}

export interface ExportBytes {
  fileName: string;
  mime: string;
  bytes: Uint8Array;
}

async function traceBytes(store: RunStore, runId: string): Promise<Uint8Array> {
  if ((await store.config(runId)).trace === false) {
    throw new AppError('NOT_FOUND', `run ${runId} ran with tracing off (--no-trace): it has a report but no trace.`, { key: runId });
  }
  if (!(await store.exists(runId, RUN_FILES.trace))) {
    if (!(await store.exists(runId, RUN_FILES.events))) {
      throw new AppError('NOT_FOUND', `run ${runId} recorded no trace (it ran with --no-trace, or never started).`, { key: runId });
    }
    return rebuiltTrace(store, runId);
  }
  return runFileBytes(store, runId, RUN_FILES.trace, MAX_TRACE_GZ_BYTES);
}

async function writable(dir: string): Promise<boolean> {
  try {
    await access(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

async function rebuiltTrace(store: RunStore, runId: string): Promise<Uint8Array> {
  const meta = { runId, status: (await store.status(runId)).status };
  const events = store.file(runId, RUN_FILES.events);
  if (await writable(store.dir(runId))) {
    try {
      await writeTraceFromEvents(events, store.file(runId, RUN_FILES.trace), meta, true);
      return await runFileBytes(store, runId, RUN_FILES.trace, MAX_TRACE_GZ_BYTES);
    } catch (e) {
      if (writeProblemOf(e) === undefined) throw e;
    }
  }
  const scratch = await mkdtemp(join(tmpdir(), 'kde-profiler-export-'));
  try {
    const path = join(scratch, RUN_FILES.trace);
    await buildTraceFile(events, path, meta, true);
    return await readFile(path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function reportOf(store: RunStore, runId: string): Promise<Report> {
  const report = await store.report(runId);
  if (!report) {
    const s = await store.status(runId);
    throw new AppError('NOT_FOUND', `run ${runId} has no report: it is ${s.status}${s.error ? ` (${s.error.message})` : ''}. ` +
      'Its trace can still be exported with --format trace.', { key: runId });
  }
  return report;
}

async function textFile(store: RunStore, runId: string, name: string, render: (r: Report) => string): Promise<Uint8Array> {
  if (await store.exists(runId, name)) return runFileBytes(store, runId, name, MAX_REPORT_BYTES);
  return new TextEncoder().encode(render(await reportOf(store, runId)));
}

export async function exportBytes(store: RunStore, runId: string, format: ExportFormat): Promise<ExportBytes> {
  const base = `kde-profiler-${runId}`;
  switch (format) {
    case 'trace': {
      const bytes = await traceBytes(store, runId);
      // handed on as it is, but never one that would inflate past what a trace may in whoever opens it
      gzipDeclaredSize(bytes, MAX_TRACE_JSON_BYTES, store.file(runId, RUN_FILES.trace));
      return { fileName: `${base}.${RUN_FILES.trace}`, mime: 'application/gzip', bytes };
    }
    case 'trace-json':
      return { fileName: `${base}.${PLAIN_TRACE_FILE}`, mime: 'application/json', bytes: await gunzipBounded(await traceBytes(store, runId), MAX_TRACE_JSON_BYTES, store.file(runId, RUN_FILES.trace)) };
    case 'json':
      await reportOf(store, runId);
      return { fileName: `${base}.${RUN_FILES.report}`, mime: 'application/json', bytes: await runFileBytes(store, runId, RUN_FILES.report, MAX_REPORT_BYTES) };
    case 'md':
      return { fileName: `${base}.${RUN_FILES.reportMd}`, mime: 'text/markdown', bytes: await textFile(store, runId, RUN_FILES.reportMd, renderReportMarkdown) };
    case 'csv':
      return { fileName: `${base}.${RUN_FILES.reportCsv}`, mime: 'text/csv', bytes: await textFile(store, runId, RUN_FILES.reportCsv, renderReportCsv) };
  }
}

/** the file a bundle of these runs is offered as: its runs' ids, cut short for the file system */
export function perfettoBundleFileName(runIds: readonly string[]): string {
  return `kde-profiler-${runIds.join('_').slice(0, 120)}.perfetto.zip`;
}

export function bundleAlignment(v: unknown): BundleAlignment {
  if (v === undefined) return 'start';
  if (typeof v !== 'string' || !(BUNDLE_ALIGNMENTS as readonly string[]).includes(v)) {
    throw new AppError('BAD_ARGUMENT', `align: expected one of ${BUNDLE_ALIGNMENTS.join(', ')}, got ${JSON.stringify(v)}`, { key: 'align' });
  }
  return v as BundleAlignment;
}

/**
 * Several runs' traces as one Perfetto archive that ui.perfetto.dev opens as one timeline, each run
 * a machine of its own described by `detailOf` (the run as the service shows it). Each trace is
 * read as `exportBytes` reads it, so a run without one is refused in the same words.
 */
export async function perfettoBundleBytes(
  store: RunStore, runIds: readonly string[], align: BundleAlignment, detailOf: (runId: string) => Promise<RunDetail>,
): Promise<ExportBytes> {
  const runs: BundleRun[] = [];
  for (const id of runIds) {
    await store.status(id);
    const trace = await exportBytes(store, id, 'trace-json');
    runs.push(bundleRunOf(await detailOf(id), trace.bytes));
  }
  return { fileName: perfettoBundleFileName(runIds), mime: 'application/zip', bytes: buildPerfettoBundle(runs, align) };
}
