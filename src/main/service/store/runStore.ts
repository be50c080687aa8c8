/**
 * The run store: one folder per run under the runs directory, and runs/index.json listing them.
 * Each folder's status.json holds the run's index entry (plus the pid of the process that owns the
 * run, and when it started), so runs are listed from the folders themselves (a finished run's
 * entry may come from index.json instead, which only ever follows the status files: indexedRuns.ts),
 * and a run that says "running" but whose owner is gone (or whose pid now belongs to another
 * process) is listed as failed, "interrupted". Several processes may share one runs folder: the
 * index changes under a lock, a status write by one journal line (runIndex.ts), and a run another
 * live process owns is not deleted from here. Reading works on a read-only runs folder: the writes
 * that only keep it tidy are skipped there.
 */
import { randomUUID } from 'node:crypto';
import { access, constants, lstat, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compareEntries, type RunIndexEntry } from '../../../shared/api';
import type { RunConfig } from '../../../shared/config';
import { reportUnderMethodNames, runConfigUnderMethodNames } from '../../../shared/posteriorMethodNames';
import { AppError } from '../../../shared/errors';
import type { Report } from '../../../shared/report';
import { readJson, readStoreJson, writeJsonAtomic } from './jsonFiles';
import { IndexedRuns } from './indexedRuns';
import { runFolders, updateIndex } from './runIndex';
import { ownerAlive } from './ownerProcess';
import { damagedEntry, statusProblem } from './statusCheck';
import { storeWrite, writeProblemOf } from './storeErrors';
import { RUN_FILES } from '../../engineProtocol';

export { processAlive } from './ownerProcess';
export { INDEX_FILE } from './runIndex';

export interface RunStatusFile extends RunIndexEntry {
  /** the process that runs it; a run whose owner is gone cannot still be running */
  ownerPid?: number;
  /** that process's start time (ownerProcess.ts), so a later process given the same pid is not taken for it */
  ownerStart?: number;
  /** the run store (one per service) that runs it, so two services in one process tell their runs apart */
  ownerStore?: string;
  enginePid?: number;
}

/** What a page sees of a status file: the owning processes are the store's business. */
export function entryOf(s: RunStatusFile): RunIndexEntry {
  const { ownerPid: _o, ownerStart: _t, ownerStore: _s, enginePid: _e, ...entry } = s;
  return entry;
}

function isUnfinished(s: RunStatusFile): boolean {
  return s.status === 'running' || s.status === 'queued';
}

function interrupted(s: RunStatusFile): RunStatusFile {
  return {
    ...s,
    status: 'failed',
    finishedAt: s.finishedAt ?? new Date().toISOString(),
    error: { name: 'AppError', code: 'RUN_FAILED', message: 'interrupted: the process running it ended before the run finished' },
  };
}

/** A report with the store's status where the store knows the run ended otherwise than the report says. */
function reportUnderStatus(report: Report, s: RunStatusFile | undefined): Report {
  if (!s || report.status !== 'completed' || (s.status !== 'failed' && s.status !== 'cancelled')) return report;
  return { ...report, status: s.status, ...(s.error ? { error: s.error } : {}) };
}

/**
 * Writes that only keep the folder tidy (the index, a dead run's status): a read-only or full runs
 * folder skips them, so that listing and reading it still work.
 */
async function tidyWrite(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (writeProblemOf(e) === undefined) throw e;
  }
}

export class RunStore {
  /** stamped on the status of every run this store executes (ownerStore) */
  readonly storeId = randomUUID();
  private readonly entries = new Map<string, RunStatusFile>();
  /** entries in listing order, made again after a change */
  private sorted: RunIndexEntry[] | undefined;
  /** what index.json holds, as far as this store knows */
  private readonly indexed: IndexedRuns;
  /** runs this store's service is executing now */
  private readonly active = new Set<string>();
  /** runs listed as damaged: their status is read again at each refresh, in case it was repaired */
  private readonly damaged = new Set<string>();

  constructor(readonly runsDir: string) {
    this.indexed = new IndexedRuns(runsDir);
  }

  markActive(runId: string, active: boolean): void {
    if (active) this.active.add(runId);
    else this.active.delete(runId);
  }

  private isLive(s: RunStatusFile): boolean {
    if (!isUnfinished(s)) return true;
    if (s.ownerPid === undefined) return false;
    if (this.ownsRun(s)) return this.active.has(s.id);
    return ownerAlive(s);
  }

  private ownsRun(s: RunStatusFile): boolean {
    return s.ownerPid === process.pid && s.ownerStore === this.storeId;
  }

  dir(runId: string): string {
    return join(this.runsDir, runId);
  }

  file(runId: string, name: string): string {
    return join(this.runsDir, runId, name);
  }

  /** Creates the runs folder (if it can: an existing read-only one is fine) and reads the runs in it. */
  async init(): Promise<void> {
    await storeWrite(this.runsDir, () => mkdir(this.runsDir, { recursive: true }));
    this.entries.clear();
    this.sorted = undefined;
    await this.refresh();
  }

  /**
   * Brings the in-memory index in line with the folders (other processes add and finish runs too):
   * one listing of the runs folder, the status files of runs that may have moved on (unfinished,
   * damaged, new to this store), and index.json written only when this store knows more than it.
   */
  async refresh(): Promise<void> {
    const present = await runFolders(this.runsDir);
    for (const id of [...this.entries.keys()]) if (!present.has(id)) this.dropEntry(id);
    const unknown = [...present].filter((id) => !this.entries.has(id));
    for (const entry of await this.indexed.finishedAmong(unknown, present.size)) this.setEntry(entry.id, entry);
    // runs the index lists whose folders are gone; and a store that has neither read nor written it (an empty runs folder) still leaves one
    let lagging = this.indexed.prune(present) || !this.indexed.checked;
    // checked before any await: a hundred thousand finished runs cost a loop, not a hundred thousand awaits
    for (const id of present) if (this.mayHaveMoved(id)) await this.readMoved(id);
    for (const entry of this.entries.values()) if (this.indexed.lags(entry)) lagging = true;
    if (!lagging) return;
    // the listing above comes from the folders; the index file only follows it
    const listed = this.list();
    await tidyWrite(() => updateIndex(this.runsDir, { seen: listed, prune: true }));
    this.indexed.note(listed);
  }

  /** whether a run's status may have changed since this store read it: not when finished (or run here) */
  private mayHaveMoved(id: string): boolean {
    const known = this.entries.get(id);
    return !known || this.damaged.has(id) || (isUnfinished(known) && !this.active.has(id));
  }

  /** Reads a run's status again, marking it interrupted when its owner is gone. */
  private async readMoved(id: string): Promise<void> {
    const s = await this.readStatus(id);
    if (!s) return;
    if (this.damaged.has(id) || this.isLive(s)) {
      this.setEntry(id, s);
      return;
    }
    const failed = interrupted(s);
    this.setEntry(id, failed);
    await tidyWrite(() => writeJsonAtomic(this.file(id, RUN_FILES.status), failed, this.runsDir));
  }

  /**
   * A run's status from its folder: undefined while it has none (being created); a damaged entry
   * (failed, with the reason) when the file is a link, a pipe, too large, too deep or of the wrong shape.
   */
  private async readStatus(id: string): Promise<RunStatusFile | undefined> {
    const path = this.file(id, RUN_FILES.status);
    const read = await readStoreJson<RunStatusFile>(path, this.runsDir);
    if ('missing' in read) return undefined;
    const problem = 'damaged' in read ? read.damaged.message : statusProblem(read.value, id);
    if (problem === undefined && 'value' in read) {
      this.damaged.delete(id);
      return read.value;
    }
    this.damaged.add(id);
    return damagedEntry(id, path, problem ?? 'unreadable');
  }

  list(): RunIndexEntry[] {
    return [...this.sortedEntries()];
  }

  /** `limit` runs from the `offset`th, newest first as list() gives them, and how many there are */
  page(offset: number, limit: number): { runs: RunIndexEntry[]; total: number } {
    const sorted = this.sortedEntries();
    return { runs: sorted.slice(offset, offset + limit), total: sorted.length };
  }

  /** sorted once per change, not once per page: a page of a hundred thousand runs is a slice */
  private sortedEntries(): readonly RunIndexEntry[] {
    this.sorted ??= [...this.entries.values()].map(entryOf).sort(compareEntries);
    return this.sorted;
  }

  private setEntry(id: string, s: RunStatusFile): void {
    this.entries.set(id, s);
    this.sorted = undefined;
  }

  private dropEntry(id: string): void {
    this.entries.delete(id);
    this.sorted = undefined;
  }

  async create(status: RunStatusFile, config: RunConfig): Promise<void> {
    await storeWrite(this.runsDir, () => mkdir(this.dir(status.id), { recursive: false }));
    try {
      await writeJsonAtomic(this.file(status.id, RUN_FILES.config), config, this.runsDir);
      await this.writeStatus(status);
    } catch (e) {
      // a run that could not be recorded leaves no empty folder behind (a full disk, say)
      this.dropEntry(status.id);
      await rm(this.dir(status.id), { recursive: true, force: true }).catch(() => undefined);
      throw e;
    }
  }

  async writeStatus(status: RunStatusFile): Promise<void> {
    this.setEntry(status.id, status);
    await writeJsonAtomic(this.file(status.id, RUN_FILES.status), status, this.runsDir);
    await updateIndex(this.runsDir, { put: [entryOf(status)] });
    this.indexed.note([status]);
  }

  /** The entry, from memory or (a run another process made) from its folder. */
  async status(runId: string): Promise<RunStatusFile> {
    const known = this.entries.get(runId);
    if (known && (!isUnfinished(known) || this.active.has(runId))) return known;
    await this.refresh();
    const s = this.entries.get(runId);
    if (!s) throw new AppError('NOT_FOUND', `run ${runId} not found in ${this.runsDir}: list runs to see the ids there.`, { key: runId });
    return s;
  }

  /** A JSON file of the run: undefined when there is none; AppError when it is damaged. */
  private async runJson<T>(runId: string, name: string): Promise<T | undefined> {
    const read = await readStoreJson<T>(this.file(runId, name), this.runsDir);
    if ('damaged' in read) throw read.damaged;
    return 'value' in read ? read.value : undefined;
  }

  async config(runId: string): Promise<RunConfig> {
    const c = runConfigUnderMethodNames(await this.runJson<RunConfig>(runId, RUN_FILES.config));
    if (!c) throw new AppError('NOT_FOUND', `run ${runId} has no readable ${RUN_FILES.config}.`, { file: this.file(runId, RUN_FILES.config) });
    return c;
  }

  /**
   * The run's report under the store's one status: a report the engine finished before its run
   * was interrupted, failed or cancelled says so (export, compare, the views read this), where the
   * file alone would still say completed.
   */
  async report(runId: string): Promise<Report | null> {
    const report = reportUnderMethodNames(await this.runJson<Report>(runId, RUN_FILES.report)) ?? null;
    if (report === null) return null;
    return reportUnderStatus(report, await this.status(runId).catch(() => undefined));
  }

  /** whether the run's folder holds something by that name (a link counts: reading it is refused) */
  async exists(runId: string, name: string): Promise<boolean> {
    try {
      await lstat(this.file(runId, name));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Deletes a run's folder. A run another live process (or another service in this one) is running
   * is refused: its owner would go on writing into a folder that is gone.
   */
  async delete(runId: string): Promise<void> {
    const s = (await readJson<RunStatusFile>(this.file(runId, RUN_FILES.status))) ?? this.entries.get(runId);
    if (s) this.refuseIfRunElsewhere(s);
    await storeWrite(this.runsDir, async () => {
      // checked first, so a read-only runs folder does not lose the run's files and keep its folder
      await access(this.runsDir, constants.W_OK);
      await rm(this.dir(runId), { recursive: true, force: true });
    });
    this.dropEntry(runId);
    // the run is gone either way (deleting runs is how a full disk gets space back); a refresh prunes the index
    await tidyWrite(() => updateIndex(this.runsDir, { remove: [runId] }));
    this.indexed.forget(runId);
  }

  private refuseIfRunElsewhere(s: RunStatusFile): void {
    if (!isUnfinished(s) || s.ownerPid === undefined || this.ownsRun(s) || !ownerAlive(s)) return;
    const owner = s.ownerPid === process.pid ? `another service in this process (pid ${s.ownerPid})` : `process ${s.ownerPid}`;
    throw new AppError('BAD_ARGUMENT', `run ${s.id} is ${s.status} in ${owner}: stop it there (or wait for it to finish), then delete it.`, {
      key: s.id, hint: `stop the run in process ${s.ownerPid}, or wait for it to finish`,
    });
  }
}
