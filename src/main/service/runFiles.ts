/**
 * Writes what a finished run leaves in its folder: the report in its three forms and the trace
 * rebuilt from events.ndjson. A failed or cancelled run gets the trace of what was recorded.
 */
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import type { Report } from '../../shared/report';
import { readNdjsonRecords, renderReportCsv, renderReportMarkdown, serializeReport, validateReport, writeChromeTrace, type TraceStats } from '../export';
import { toolVersion } from './reportBuilder';

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Writes report.json, .md and .csv; returns the schema problems found (none for a sound report). */
export async function writeReportFiles(paths: { json: string; md: string; csv: string }, report: Report): Promise<string[]> {
  const validation = validateReport(report);
  await writeAtomic(paths.json, serializeReport(report));
  await writeAtomic(paths.md, renderReportMarkdown(report));
  await writeAtomic(paths.csv, renderReportCsv(report));
  return validation.ok ? [] : validation.errors;
}

export interface TraceWriteResult {
  stats: TraceStats;
  /** lines of events.ndjson that could not be read (a writer killed mid-line) */
  badLines: number;
}

export async function writeTraceFromEvents(
  eventsPath: string,
  tracePath: string,
  meta: { runId: string; status: string },
  gzip: boolean,
): Promise<TraceWriteResult> {
  const read = await readNdjsonRecords(eventsPath);
  const stats = await writeChromeTrace(tracePath, read.records, { app: 'kde-profiler', version: toolVersion(), ...meta }, { gzip });
  return { stats, badLines: read.badLines };
}
