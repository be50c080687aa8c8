/**
 * The run queue: runs wait in order and run one at a time (concurrent runs would share cores and
 * distort each other's timings). It holds the runs not yet ended, and the ended ones whose final
 * status a full or read-only runs folder refused, until that status is saved.
 */
import { basename } from 'node:path';
import type { RunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import type { RunEvent } from '../../../shared/events';
import type { SpawnEngine } from '../../host';
import type { DecodeRequest } from '../../engineProtocol';
import { newRunId, ownerStamp, type OpenEventStream, type RunStatusFile, type RunStore } from '../store';
import { ActiveRun } from './activeRun';

/** runs waiting behind the current one: a script gone wrong cannot fill the runs folder with queued runs */
export const MAX_QUEUED_RUNS = 64;

export interface RunQueueOptions {
  store: RunStore;
  spawn: SpawnEngine;
  emit: (event: RunEvent) => void;
  /** called once a run has ended, before the next one starts */
  onEnded: (run: ActiveRun) => void;
  readRssBytes?: (pid: number) => Promise<number | null>;
  openEventStream?: OpenEventStream;
  /** see ActiveRunOptions.engineTimeoutMs */
  engineTimeoutMs?: number;
  /** see ActiveRunOptions.engineNiceness */
  engineNiceness?: number;
}

function datasetLabel(config: RunConfig): string {
  return config.data.kind === 'preset' ? `preset:${config.data.name}` : basename(config.data.path);
}

export class RunQueue {
  private readonly waiting: ActiveRun[] = [];
  private current: ActiveRun | undefined;
  /** queued or running, by id */
  private readonly active = new Map<string, ActiveRun>();
  /** ended runs whose final status a full or read-only runs folder refused: saved again when runs are listed */
  private readonly unsavedFinals = new Map<string, ActiveRun>();

  constructor(private readonly o: RunQueueOptions) {}

  /** the run with this id while it is queued or running */
  get(id: string): ActiveRun | undefined {
    return this.active.get(id);
  }

  /** Records a new run as queued in the store and queues it; returns its id. */
  async enqueue(config: RunConfig, decode?: DecodeRequest): Promise<string> {
    const { store } = this.o;
    if (this.waiting.length >= MAX_QUEUED_RUNS) {
      throw new AppError('BAD_ARGUMENT', `${this.waiting.length} runs are already waiting to start; wait for some to finish, or cancel some from Runs, before queuing more.`);
    }
    const id = newRunId();
    const status: RunStatusFile = {
      id, status: 'queued', createdAt: new Date().toISOString(), dataset: datasetLabel(config), backend: config.backend,
      strategies: [...config.strategies], headline: [], ...ownerStamp(), ownerStore: store.storeId,
    };
    if (config.label !== undefined) status.label = config.label;
    await store.create(status, config);
    const run = new ActiveRun({
      status, config, store, spawn: this.o.spawn, decode, readRssBytes: this.o.readRssBytes, openEventStream: this.o.openEventStream, emit: this.o.emit,
      engineTimeoutMs: this.o.engineTimeoutMs, engineNiceness: this.o.engineNiceness,
    });
    this.active.set(id, run);
    this.waiting.push(run);
    this.o.emit({ type: 'status', runId: id, status: 'queued' });
    this.pump();
    return id;
  }

  /** Cancels a queued or running run and waits for it to end; false when no such run is going. */
  async cancel(id: string): Promise<boolean> {
    const run = this.active.get(id);
    if (!run) return false;
    const i = this.waiting.indexOf(run);
    if (i >= 0) this.waiting.splice(i, 1);
    await run.cancel();
    return true;
  }

  /** Cancels every queued and running run. */
  async cancelAll(): Promise<void> {
    this.waiting.splice(0, this.waiting.length);
    await Promise.all([...this.active.values()].map((r) => r.cancel()));
  }

  /** Tries again to save the final statuses the runs folder refused. */
  async saveUnsavedFinals(): Promise<void> {
    for (const [id, run] of this.unsavedFinals) if (await run.saveFinalStatus()) this.unsavedFinals.delete(id);
  }

  /** Stops trying to save a deleted run's final status. */
  forget(id: string): void {
    this.unsavedFinals.delete(id);
  }

  private pump(): void {
    if (this.current) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.current = next;
    // start() never rejects; the catch is the last guard that a run cannot end the service
    next.start().catch((e: unknown) => console.error(`run ${next.id}: ${e instanceof Error ? e.message : String(e)}`));
    void next.finished.then(() => {
      this.o.onEnded(next);
      this.active.delete(next.id);
      if (next.finalStatusUnsaved) this.unsavedFinals.set(next.id, next);
      if (this.current === next) this.current = undefined;
      this.pump();
    });
  }
}
