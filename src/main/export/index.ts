/**
 * Exports of a run: the Chrome Trace Event file (shared/spec/trace-format.md §6), the reader of a
 * run's events.ndjson, and the report writers (JSON with its schema, Markdown, CSV).
 *
 * Must not import electron: the CLI and web mode export without it. Node built-ins are fine.
 */
export { buildChromeTrace, writeChromeTrace, type ChromeTraceFile, type TraceMeta, type WriteTraceOptions } from './chromeTrace';
export { normalizeTrace, PROCESS_IDS, PROCESS_NAMES, type ChromeEvent, type TraceStats, type NormalizedTrace } from './traceNormalize';
export { readNdjsonRecords, ndjsonLine, type NdjsonReadResult } from './ndjsonRecords';
export { isTraceRecord, isProcessRole } from './traceRecords';
export { renderReportMarkdown } from './reportMarkdown';
export { renderReportCsv, CSV_COLUMNS } from './reportCsv';
export { validateReport, serializeReport, parseReport, warmReportValidator, type ReportValidation } from './reportJson';
export { baselineOf, speedupOf } from './reportTimings';
export { buildPerfettoBundle, bundleRunOf, PERFETTO_MANIFEST_FILE, type BundleRun } from './perfettoBundle';
