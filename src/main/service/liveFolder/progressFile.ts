/**
 * A run's progress and the newest lines of its log, kept in its folder while it runs, for pages
 * served by another process. The queue hands both to its own pages in memory only; a serve on the
 * same runs folder as a CLI run would otherwise see the run's status change and nothing in
 * between. The file holds the latest progress event as a page receives it and the kept log,
 * rewritten atomically at most every PROGRESS_WRITE_INTERVAL_MS, and once more when the run ends
 * if anything changed since (a cancelled run's last progress says where it stopped, and its last
 * log lines why). It is left as it was then, never removed: a removal at the end would be one more
 * write racing the run's last ones (on a full disk it frees the block the final status is waiting
 * for, behind the queue's back).
 */
import { mergeRunLogs, readRunEvent, readRunLog, type RunEvent, type RunLogLine } from '../../../shared/events';
import { readJson, RUN_FILES, writeJsonAtomic } from '../store';

/** the run folder's name for it (engineProtocol/runFolder.ts); only the service writes and reads it */
export const PROGRESS_FILE = RUN_FILES.progress;

/** a page following another process's run sees its progress move twice a second; a small write per run that often costs the run nothing */
export const PROGRESS_WRITE_INTERVAL_MS = 500;

type ProgressEvent = Extract<RunEvent, { type: 'progress' }>;

/** what the file holds: the latest progress event, and the run's log so far (its newest lines) */
type LiveStateFile = ProgressEvent & { log?: RunLogLine[] };

interface RunProgress {
  latest: ProgressEvent | undefined;
  log: RunLogLine[];
  /** noted since the last write */
  changed: boolean;
  lastWriteMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** the write under way, or the last one: writes of one run never overlap */
  writing: Promise<void>;
  ended: boolean;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The progress files of the runs one service runs; fed the events its queue emits. */
export class ProgressFiles {
  private readonly runs = new Map<string, RunProgress>();

  /** `fileOf`: where a run's progress file goes (its folder's PROGRESS_FILE) */
  constructor(private readonly fileOf: (runId: string) => string, private readonly runsDir: string, private readonly intervalMs = PROGRESS_WRITE_INTERVAL_MS) {}

  note(event: RunEvent): void {
    if (event.type === 'progress') this.noted(event.runId, (run) => (run.latest = event));
    else if (event.type === 'log') this.noted(event.runId, (run) => (run.log = mergeRunLogs(run.log, [{ seq: event.seq, level: event.level, message: event.message }])));
    else if (event.type === 'status' && FINAL_STATUSES.has(event.status)) this.end(event.runId);
  }

  /** Resolves once no write is under way: before a run's folder is deleted, before the process exits. */
  async settled(): Promise<void> {
    await Promise.all([...this.runs.values()].map((r) => r.writing));
  }

  private noted(runId: string, change: (run: RunProgress) => void): void {
    let run = this.runs.get(runId);
    if (!run) this.runs.set(runId, (run = { latest: undefined, log: [], changed: false, lastWriteMs: -Infinity, timer: undefined, writing: Promise.resolve(), ended: false }));
    if (run.ended) return;
    change(run);
    run.changed = true;
    if (run.timer !== undefined) return;
    const waitMs = run.lastWriteMs + this.intervalMs - performance.now();
    run.timer = setTimeout(() => this.write(runId, run), Math.max(waitMs, 0));
    // a pending write must not keep a finished command alive
    run.timer.unref?.();
  }

  private write(runId: string, run: RunProgress): void {
    run.timer = undefined;
    if (!run.changed) return;
    run.changed = false;
    run.lastWriteMs = performance.now();
    const state: LiveStateFile | { runId: string; log: RunLogLine[] } = { ...(run.latest ?? { runId }), log: run.log };
    // only other processes' pages read it: a full or read-only folder costs them the progress bar, never the run
    run.writing = run.writing.then(() => writeJsonAtomic(this.fileOf(runId), state, this.runsDir)).catch(() => undefined);
  }

  private end(runId: string): void {
    const run = this.runs.get(runId);
    if (!run) return;
    if (run.timer !== undefined) clearTimeout(run.timer);
    // what changed since the last write, once: then nothing more
    this.write(runId, run);
    run.ended = true;
    void run.writing.then(() => {
      if (this.runs.get(runId) === run) this.runs.delete(runId);
    });
  }
}

/** A run's live state as its process last saved it: its progress event (none before the first) and its log; undefined when the file is not that run's. */
export interface SavedLiveState {
  progress: ProgressEvent | undefined;
  log: RunLogLine[];
}

export async function readLiveStateFile(path: string, runId: string): Promise<SavedLiveState | undefined> {
  const saved = await readJson<unknown>(path);
  if (typeof saved !== 'object' || saved === null || (saved as { runId?: unknown }).runId !== runId) return undefined;
  const event = readRunEvent(saved);
  return { progress: event?.type === 'progress' ? { type: 'progress', runId, progress: event.progress } : undefined, log: readRunLog((saved as { log?: unknown }).log) };
}

/** The progress another process last saved for a run; undefined when there is none or it is not a progress event of that run. */
export async function readProgressFile(path: string, runId: string): Promise<ProgressEvent | undefined> {
  return (await readLiveStateFile(path, runId))?.progress;
}
