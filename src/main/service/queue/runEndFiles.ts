/**
 * The files a run leaves when it ends: the report (JSON, Markdown, CSV) when there is one, and the
 * Chrome trace built from events.ndjson when the run kept a trace. A file that cannot be written
 * is named in the answer, not thrown: the run still gets its final status.
 */
import type { RunConfig } from '../../../shared/config';
import { serializeError } from '../../../shared/errors';
import type { LogLevel, RunStatus } from '../../../shared/events';
import type { Report } from '../../../shared/report';
import { RUN_FILES, writeReportFiles, writeTraceFromEvents, type RunStore } from '../store';

export interface RunEndFiles {
  store: RunStore;
  config: RunConfig;
  runId: string;
  status: RunStatus;
  report: Report | undefined;
  /** a line of the run's log */
  log: (level: LogLevel, message: string) => void;
}

/** Writes the report files and the trace; returns what could not be written. A schema mismatch is a warning of its own. */
export async function writeRunEndFiles({ store, config, runId: id, status, report, log }: RunEndFiles): Promise<string[]> {
  const unsaved: string[] = [];
  if (report) {
    try {
      const problems = await writeReportFiles(
        { json: store.file(id, RUN_FILES.report), md: store.file(id, RUN_FILES.reportMd), csv: store.file(id, RUN_FILES.reportCsv) },
        report,
      );
      if (problems.length > 0) {
        log('warn', `${RUN_FILES.report} does not match its schema: ${problems.slice(0, 5).join('; ')}`);
      }
    } catch (e) {
      unsaved.push(`report files: ${serializeError(e).message}`);
    }
  }
  if (config.trace && (await store.exists(id, RUN_FILES.events))) {
    try {
      await writeTraceFromEvents(store.file(id, RUN_FILES.events), store.file(id, RUN_FILES.trace), { runId: id, status }, true);
    } catch (e) {
      unsaved.push(`trace: ${serializeError(e).message}`);
    }
  }
  return unsaved;
}
