/**
 * Runs another process is running in this service's runs folder (a CLI `kde-profiler run
 * --runs-dir SAME` beside a serve), followed so that this service's subscribers hear of them as of
 * its own runs: each status as it changes (queued, running, the end), their progress and log lines
 * (saved by their process, progressFile.ts), and their timeline, tailed from events.ndjson into a
 * LiveTimeline whose notices go to the pages and which answers the views while the run records.
 *
 * The folder is polled every pollIntervalMs while anyone listens: one listing, and for each run
 * another process has not finished, its status and progress files and what its event log gained.
 * A run seen ended is never read again. Memory stays bounded: at most maxFollowedTimelines runs
 * are tailed at once (the others are followed by status and progress only), and each tail reads a
 * bounded slice per poll (eventTail.ts).
 */
import { readdir } from 'node:fs/promises';
import type { RunEvent, RunStatus } from '../../../shared/events';
import { isRunId } from '../../../shared/runIds';
import { ownerAlive, readJson, RUN_FILES, type RunStatusFile, type RunStore } from '../store';
import { LiveTimeline } from '../timeline';
import { EventTail } from './eventTail';
import { PROGRESS_FILE, readLiveStateFile } from './progressFile';

export interface OtherProcessRunsOptions {
  /** how often the runs folder is looked at */
  pollIntervalMs: number;
  /** other processes' runs whose timelines are followed at once */
  maxFollowedTimelines: number;
}

/**
 * Once a second: a page's progress bar and timeline move about as often as they do for a run of
 * its own server (which sends progress when it comes), and one listing of the folder a second
 * costs nothing. Another process runs its runs one at a time, so a few timelines cover a lab's
 * runs folder; each holds what the run recorded, as a run of this service's own does.
 */
export const OTHER_PROCESS_RUNS: OtherProcessRunsOptions = { pollIntervalMs: 1_000, maxFollowedTimelines: 8 };

export interface OtherProcessRunsDeps {
  store: RunStore;
  /** the runs folder made and read: nothing is polled before */
  ready: Promise<void>;
  emit: (event: RunEvent) => void;
  /** whether anyone would hear: the folder is not polled for no one */
  listened: () => boolean;
  /** a followed run ended: whatever was cached of its files while it recorded is stale */
  onEnded: (runId: string) => void;
}

interface Followed {
  status: RunStatus;
  /** the progress last forwarded, as JSON */
  progressSent: string | undefined;
  /** the seq of the last log line forwarded; -1 before the first */
  logSent: number;
  tail: EventTail | undefined;
  timeline: LiveTimeline | undefined;
}

const RUN_STATUSES: ReadonlySet<string> = new Set(['queued', 'running', 'completed', 'failed', 'cancelled']);

function isUnfinished(status: RunStatus): boolean {
  return status === 'queued' || status === 'running';
}

function statusEvent(s: Pick<RunStatusFile, 'id' | 'status' | 'error'>): RunEvent {
  return s.error ? { type: 'status', runId: s.id, status: s.status, error: s.error } : { type: 'status', runId: s.id, status: s.status };
}

export class OtherProcessRuns {
  private readonly options: OtherProcessRunsOptions;
  private readonly followed = new Map<string, Followed>();
  /** runs never to read again: ended, or this service's own */
  private readonly done = new Set<string>();
  /** the first poll has recorded what was there before: runs that ended before it are not news */
  private baselineTaken = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: OtherProcessRunsDeps, options: Partial<OtherProcessRunsOptions> = {}) {
    this.options = { ...OTHER_PROCESS_RUNS, ...options };
    deps.ready.then(() => this.start(), () => undefined);
  }

  /** The live timeline of another process's run while it is followed; undefined otherwise. */
  timeline(runId: string): LiveTimeline | undefined {
    return this.followed.get(runId)?.timeline;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.polling;
  }

  private start(): void {
    if (this.stopped) return;
    this.timer = setInterval(() => this.pollOnce(), this.options.pollIntervalMs);
    // following other runs serves the pages; it must not keep a process alive that is otherwise done
    this.timer.unref();
    this.pollOnce();
  }

  /** one poll at a time: a slow disk makes polls rarer, never piles them up */
  private pollOnce(): void {
    if (this.polling || this.stopped) return;
    if (this.baselineTaken && !this.deps.listened()) return;
    this.polling = this.poll()
      .catch(() => undefined)
      .finally(() => {
        this.polling = undefined;
      });
  }

  private async poll(): Promise<void> {
    const names = (await readdir(this.deps.store.runsDir).catch(() => [] as string[])).filter(isRunId);
    const present = new Set(names);
    for (const id of [...this.followed.keys()]) if (!present.has(id)) this.followed.delete(id);
    for (const id of [...this.done]) if (!present.has(id)) this.done.delete(id);
    for (const id of names) {
      if (this.stopped) return;
      if (!this.done.has(id)) await this.look(id);
    }
    this.baselineTaken = true;
  }

  private async look(id: string): Promise<void> {
    const { store } = this.deps;
    const s = await readJson<RunStatusFile>(store.file(id, RUN_FILES.status));
    // being created (no status yet), or damaged: the store's listing says what it is
    if (!s || s.id !== id || !RUN_STATUSES.has(s.status)) return;
    if (s.ownerPid === process.pid && s.ownerStore === store.storeId) {
      this.done.add(id);
      return;
    }
    const known = this.followed.get(id);
    if (!isUnfinished(s.status) || !ownerAlive(s)) return this.ended(s, known);
    const f = known ?? { status: s.status, progressSent: undefined, logSent: -1, tail: undefined, timeline: undefined };
    if (!known) this.followed.set(id, f);
    if (known ? known.status !== s.status : this.baselineTaken) this.deps.emit(statusEvent(s));
    f.status = s.status;
    await this.forwardLiveState(id, f);
    await this.forwardTrace(id, f);
  }

  /** The run ended, or its process is gone: its final status goes out once, after its last timeline notice. */
  private async ended(s: RunStatusFile, known: Followed | undefined): Promise<void> {
    const id = s.id;
    this.done.add(id);
    this.followed.delete(id);
    if (!known && !this.baselineTaken) return;
    known?.timeline?.flushNotices();
    // an owner gone mid-run: the store marks the run failed, interrupted, and says so the same way everywhere
    const final = isUnfinished(s.status) ? await this.deps.store.status(id).catch(() => undefined) : s;
    if (final && !isUnfinished(final.status)) this.deps.emit(statusEvent(final));
    this.deps.onEnded(id);
  }

  private async forwardLiveState(id: string, f: Followed): Promise<void> {
    // a queued run has no progress yet: a long queue (a sweep) costs one status read per run and poll
    if (f.status !== 'running') return;
    const saved = await readLiveStateFile(this.deps.store.file(id, PROGRESS_FILE), id);
    if (!saved) return;
    // a page that joined late has the lines kept so far from getRun; these are the ones since
    for (const line of saved.log) {
      if (line.seq <= f.logSent) continue;
      f.logSent = line.seq;
      this.deps.emit({ type: 'log', runId: id, ...line });
    }
    const event = saved.progress;
    if (!event) return;
    const text = JSON.stringify(event.progress);
    if (text === f.progressSent) return;
    f.progressSent = text;
    this.deps.emit(event);
  }

  private async forwardTrace(id: string, f: Followed): Promise<void> {
    if (f.status !== 'running') return;
    if (!f.tail) {
      if (this.tailCount() >= this.options.maxFollowedTimelines) return;
      f.tail = new EventTail(this.deps.store.file(id, RUN_FILES.events));
      // another process's open spans are its own: the timeline shows what it has written
      f.timeline = new LiveTimeline(() => [], { notify: (change) => this.deps.emit({ type: 'timeline', runId: id, ...change }) });
    }
    const { records } = await f.tail.read();
    if (records.length > 0) f.timeline?.append(records);
  }

  private tailCount(): number {
    let n = 0;
    for (const f of this.followed.values()) if (f.tail) n++;
    return n;
  }
}
