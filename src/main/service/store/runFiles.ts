/**
 * Writes what a finished run leaves in its folder: the report in its three forms and the trace
 * rebuilt from events.ndjson. A failed or cancelled run gets the trace of what was recorded.
 * A write that fails for want of permission or space is reported about the runs folder.
 */
import { dirname } from 'node:path';
import type { Report } from '../../../shared/report';
import { readNdjsonRecords, renderReportCsv, renderReportMarkdown, serializeReport, validateReport, writeChromeTrace, type TraceStats } from '../../export';
import { writeTextAtomic } from './jsonFiles';
import { toolVersion } from '../report';
import { storeWrite } from './storeErrors';

/** a run's files sit in <runs folder>/<run id>/ */
function runsDirOf(runFile: string): string {
  return dirname(dirname(runFile));
}

/** Writes report.json, .md and .csv; returns the schema problems found (none for a sound report). */
export async function writeReportFiles(paths: { json: string; md: string; csv: string }, report: Report): Promise<string[]> {
  const validation = validateReport(report);
  const runsDir = runsDirOf(paths.json);
  await writeTextAtomic(paths.json, serializeReport(report), runsDir);
  await writeTextAtomic(paths.md, renderReportMarkdown(report), runsDir);
  await writeTextAtomic(paths.csv, renderReportCsv(report), runsDir);
  return validation.ok ? [] : validation.errors;
}

export interface TraceWriteResult {
  stats: TraceStats;
  /** lines of events.ndjson that could not be read (a writer killed mid-line) */
  badLines: number;
}

/** Builds the trace file from events.ndjson wherever `tracePath` says (the run's folder or elsewhere). */
export async function buildTraceFile(
  eventsPath: string,
  tracePath: string,
  meta: { runId: string; status: string },
  gzip: boolean,
): Promise<TraceWriteResult> {
  const read = await readNdjsonRecords(eventsPath);
  const stats = await writeChromeTrace(tracePath, read.records, { app: 'kde-profiler', version: toolVersion(), ...meta }, { gzip });
  return { stats, badLines: read.badLines };
}

/** Writes the trace into the run's folder (`tracePath` inside it). */
export async function writeTraceFromEvents(
  eventsPath: string,
  tracePath: string,
  meta: { runId: string; status: string },
  gzip: boolean,
): Promise<TraceWriteResult> {
  return storeWrite(runsDirOf(tracePath), () => buildTraceFile(eventsPath, tracePath, meta, gzip));
}
