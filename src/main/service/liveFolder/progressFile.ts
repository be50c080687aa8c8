/**
 * A run's progress, kept in its folder while it runs, for pages served by another process. The
 * queue hands progress to its own pages in memory only; a serve on the same runs folder as a CLI
 * run would otherwise see the run's status change and nothing in between. The file holds the
 * latest progress event as a page receives it, rewritten atomically at most every
 * PROGRESS_WRITE_INTERVAL_MS until the run ends. It is left as it was then: its status says the
 * rest, readers look at it only while the run is unfinished, and a removal at the end would be one
 * more write racing the run's last ones (on a full disk it frees the block the final status is
 * waiting for, behind the queue's back).
 */
import type { RunEvent } from '../../../shared/events';
import { readRunEvent } from '../../../shared/events';
import { readJson, RUN_FILES, writeJsonAtomic } from '../store';

/** the run folder's name for it (engineProtocol/runFolder.ts); only the service writes and reads it */
export const PROGRESS_FILE = RUN_FILES.progress;

/** a page following another process's run sees its progress move twice a second; a small write per run that often costs the run nothing */
export const PROGRESS_WRITE_INTERVAL_MS = 500;

type ProgressEvent = Extract<RunEvent, { type: 'progress' }>;

interface RunProgress {
  latest: ProgressEvent | undefined;
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
    if (event.type === 'progress') this.progressed(event);
    else if (event.type === 'status' && FINAL_STATUSES.has(event.status)) this.end(event.runId);
  }

  /** Resolves once no write is under way: before a run's folder is deleted, before the process exits. */
  async settled(): Promise<void> {
    await Promise.all([...this.runs.values()].map((r) => r.writing));
  }

  private progressed(event: ProgressEvent): void {
    let run = this.runs.get(event.runId);
    if (!run) this.runs.set(event.runId, (run = { latest: undefined, lastWriteMs: -Infinity, timer: undefined, writing: Promise.resolve(), ended: false }));
    if (run.ended) return;
    run.latest = event;
    if (run.timer !== undefined) return;
    const waitMs = run.lastWriteMs + this.intervalMs - performance.now();
    run.timer = setTimeout(() => this.write(run), Math.max(waitMs, 0));
    // a pending write must not keep a finished command alive
    run.timer.unref?.();
  }

  private write(run: RunProgress): void {
    run.timer = undefined;
    const event = run.latest;
    if (run.ended || !event) return;
    run.lastWriteMs = performance.now();
    // only other processes' pages read it: a full or read-only folder costs them the progress bar, never the run
    run.writing = run.writing.then(() => writeJsonAtomic(this.fileOf(event.runId), event, this.runsDir)).catch(() => undefined);
  }

  private end(runId: string): void {
    const run = this.runs.get(runId);
    if (!run) return;
    run.ended = true;
    if (run.timer !== undefined) clearTimeout(run.timer);
    void run.writing.then(() => {
      if (this.runs.get(runId) === run) this.runs.delete(runId);
    });
  }
}

/** The progress another process last saved for a run; undefined when there is none or it is not a progress event of that run. */
export async function readProgressFile(path: string, runId: string): Promise<ProgressEvent | undefined> {
  const event = readRunEvent(await readJson<unknown>(path));
  return event?.type === 'progress' && event.runId === runId ? event : undefined;
}
