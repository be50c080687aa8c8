/**
 * The run store: one folder per run under the runs directory, and runs/index.json listing them.
 * Each folder's status.json holds the run's index entry (plus the pid of the process that owns the
 * run), so the index can always be rebuilt from the folders, and a run that says "running" but
 * whose owner is gone is listed as failed, "interrupted".
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunIndexEntry } from '../../shared/api';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { Report } from '../../shared/report';
import { readJson, writeJsonAtomic } from './jsonFiles';
import { isRunId } from '../../shared/runIds';

export const RUN_FILES = {
  config: 'config.json',
  status: 'status.json',
  events: 'events.ndjson',
  report: 'report.json',
  reportMd: 'report.md',
  reportCsv: 'report.csv',
  trace: 'trace.json.gz',
} as const;
export const INDEX_FILE = 'index.json';

export interface RunStatusFile extends RunIndexEntry {
  /** the process that runs it; a run whose owner is gone cannot still be running */
  ownerPid?: number;
  /** the run store (one per service) that runs it, so two services in one process tell their runs apart */
  ownerStore?: string;
  enginePid?: number;
}

/** whether a process with this pid exists (EPERM: it does, under another user) */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a page sees of a status file: the owning processes are the store's business. */
export function entryOf(s: RunStatusFile): RunIndexEntry {
  const { ownerPid: _o, ownerStore: _s, enginePid: _e, ...entry } = s;
  return entry;
}

export class RunStore {
  /** stamped on the status of every run this store executes (ownerStore) */
  readonly storeId = randomUUID();
  private entries = new Map<string, RunStatusFile>();
  /** runs this store's service is executing now */
  private readonly active = new Set<string>();

  constructor(readonly runsDir: string) {}

  markActive(runId: string, active: boolean): void {
    if (active) this.active.add(runId);
    else this.active.delete(runId);
  }

  private isLive(s: RunStatusFile): boolean {
    if (s.status !== 'running' && s.status !== 'queued') return true;
    if (s.ownerPid === undefined) return false;
    if (s.ownerPid === process.pid && s.ownerStore === this.storeId) return this.active.has(s.id);
    return processAlive(s.ownerPid);
  }

  dir(runId: string): string {
    return join(this.runsDir, runId);
  }

  file(runId: string, name: string): string {
    return join(this.runsDir, runId, name);
  }

  /** Creates the runs folder and rebuilds the index from the run folders. */
  async init(): Promise<void> {
    await mkdir(this.runsDir, { recursive: true });
    this.entries.clear();
    await this.refresh();
  }

  /** Brings the in-memory index in line with the folders (other processes add and finish runs too). */
  async refresh(): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.runsDir)).filter(isRunId);
    } catch {
      names = [];
    }
    const present = new Set(names);
    for (const id of [...this.entries.keys()]) if (!present.has(id)) this.entries.delete(id);
    for (const id of names) {
      const known = this.entries.get(id);
      if (known && known.status !== 'running' && known.status !== 'queued') continue;
      if (known && this.active.has(id)) continue;
      const s = await readJson<RunStatusFile>(this.file(id, RUN_FILES.status));
      if (!s || s.id !== id) continue;
      if (!this.isLive(s)) {
        const failed: RunStatusFile = {
          ...s,
          status: 'failed',
          finishedAt: s.finishedAt ?? new Date().toISOString(),
          error: { name: 'AppError', code: 'RUN_FAILED', message: 'interrupted: the process running it ended before the run finished' },
        };
        await writeJsonAtomic(this.file(id, RUN_FILES.status), failed);
        this.entries.set(id, failed);
      } else {
        this.entries.set(id, s);
      }
    }
    await this.writeIndex();
  }

  list(): RunIndexEntry[] {
    return [...this.entries.values()].map(entryOf).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id)));
  }

  async create(status: RunStatusFile, config: RunConfig): Promise<void> {
    await mkdir(this.dir(status.id), { recursive: false });
    await writeJsonAtomic(this.file(status.id, RUN_FILES.config), config);
    await this.writeStatus(status);
  }

  async writeStatus(status: RunStatusFile): Promise<void> {
    this.entries.set(status.id, status);
    await writeJsonAtomic(this.file(status.id, RUN_FILES.status), status);
    await this.writeIndex();
  }

  /** The entry, from memory or (a run another process made) from its folder. */
  async status(runId: string): Promise<RunStatusFile> {
    const known = this.entries.get(runId);
    if (known && known.status !== 'running' && known.status !== 'queued') return known;
    if (known && this.active.has(runId)) return known;
    await this.refresh();
    const s = this.entries.get(runId);
    if (!s) throw new AppError('NOT_FOUND', `run ${runId} not found in ${this.runsDir}: list runs to see the ids there.`, { key: runId });
    return s;
  }

  async config(runId: string): Promise<RunConfig> {
    const c = await readJson<RunConfig>(this.file(runId, RUN_FILES.config));
    if (!c) throw new AppError('NOT_FOUND', `run ${runId} has no readable ${RUN_FILES.config}.`, { file: this.file(runId, RUN_FILES.config) });
    return c;
  }

  async report(runId: string): Promise<Report | null> {
    return (await readJson<Report>(this.file(runId, RUN_FILES.report))) ?? null;
  }

  async exists(runId: string, name: string): Promise<boolean> {
    try {
      await stat(this.file(runId, name));
      return true;
    } catch {
      return false;
    }
  }

  async delete(runId: string): Promise<void> {
    await rm(this.dir(runId), { recursive: true, force: true });
    this.entries.delete(runId);
    await this.writeIndex();
  }

  private async writeIndex(): Promise<void> {
    await writeJsonAtomic(join(this.runsDir, INDEX_FILE), { runs: this.list() });
  }
}
