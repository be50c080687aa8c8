/**
 * The engine process's pool of workers: N worker threads, each with its own backend. It sends
 * each worker the dataset once, asks it to fit or predict its electrodes, routes what comes back
 * (trace batches, term blocks, results) and fails every pending call, with the worker's reason,
 * when a worker dies. Cancel is terminate(): the workers stop where they are.
 */
import type { Worker } from 'node:worker_threads';
import type { BackendChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError, deserializeError } from '../../../shared/errors';
import type { TraceRecord } from '../../../shared/events';
import type { BackendInfo } from '../../../shared/report';
import type { ElectrodeMarks, FitOptions, KdePart, LocalElectrodeTerms, PlannedTerms, PredictOptions, TermListener } from '../../engine';
import { CancelledError, type SeriesReach } from '../../engine/model';
import type { DecodingShare, FitSummary, FromWorker, ToWorker, WorkerInit, WorkerProfile } from './poolProtocol';
import { releaseTerms, type TermRelease } from './termRing';
import { moduleWorkerEntry, startModuleWorker } from '../../workers';

export interface PoolOptions {
  workers: number;
  backend: BackendChoice;
  /** the run clock's origin, so worker spans sit on the engine's timeline */
  originNs: string;
  trace: boolean;
  /** every trace batch a worker sends, for the run's event stream */
  onRecords: (records: TraceRecord[]) => void;
}

export interface WorkerFit {
  occupancy: Float64Array;
  electrodes: FitSummary[];
  profile?: WorkerProfile;
}

interface Pending {
  resolve(message: FromWorker): void;
  reject(error: Error): void;
  terms?: TermListener;
  /** a local call's terms, one electrode at a time */
  onLocal?: (terms: LocalElectrodeTerms) => void;
}

const EMPTY = new Float64Array(0);

/** A block in a worker's term ring is given back by freeing its slot. */
function ringRelease(release: TermRelease | undefined): (() => void) | undefined {
  return release && (() => releaseTerms(release));
}

/** The dataset as one worker needs it: positions and grid, and spikes of its electrodes only. */
function workerShare(dataset: Dataset, electrodes: readonly number[]): Dataset {
  const mine = new Set(electrodes);
  const { expected: _expected, ...rest } = dataset;
  return {
    ...rest,
    electrodes: dataset.electrodes.map((el, e) => (mine.has(e)
      ? el
      : { ...el, encodingSpikeTimes: EMPTY, encodingFeatures: EMPTY, decodingSpikeTimes: EMPTY, decodingFeatures: EMPTY })),
  };
}

class PoolWorker {
  readonly pending = new Map<number, Pending>();
  tensors = 0;
  failure: Error | undefined;

  constructor(readonly index: number, readonly thread: Worker) {}

  request(message: ToWorker, terms?: TermListener, onLocal?: (terms: LocalElectrodeTerms) => void): Promise<FromWorker> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      if ('call' in message) this.pending.set(message.call, { resolve, reject, terms, onLocal });
      this.thread.postMessage(message);
    });
  }

  fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }
}

export class EnginePool {
  private nextCall = 1;
  private nextDatasetId = 1;
  private readonly datasetIds = new WeakMap<Dataset, number>();
  /** each live model's tensor count per worker, taken off the count as soon as it is released */
  private readonly modelTensors = new Map<number, number[]>();
  private terminated = false;

  private constructor(private readonly workers: PoolWorker[], readonly backends: BackendInfo[]) {}

  /** Starts every worker and waits until each has its backend; a worker that cannot start fails the pool. */
  static async start(options: PoolOptions): Promise<EnginePool> {
    const workers: PoolWorker[] = [];
    const ready: Promise<BackendInfo>[] = [];
    for (let i = 0; i < options.workers; i++) {
      const init: WorkerInit = { worker: i, backend: options.backend, originNs: options.originNs, trace: options.trace };
      const worker = new PoolWorker(i, startModuleWorker(moduleWorkerEntry(import.meta.url, 'poolWorker'), init));
      workers.push(worker);
      ready.push(new Promise<BackendInfo>((resolve, reject) => {
        worker.thread.on('message', (m: FromWorker) => {
          if (m.type === 'ready') resolve(m.backend);
          else EnginePool.route(worker, m, options.onRecords);
        });
        worker.thread.on('error', (e) => {
          const error = new AppError('RUN_FAILED', `engine worker ${i} failed: ${e.message}`);
          worker.fail(error);
          reject(error);
        });
        worker.thread.on('exit', (code) => {
          const error = new AppError('RUN_FAILED', `engine worker ${i} exited (code ${code}) before its work was done`);
          worker.fail(error);
          reject(error);
        });
      }));
    }
    try {
      return new EnginePool(workers, await Promise.all(ready));
    } catch (e) {
      await Promise.all(workers.map((w) => w.thread.terminate()));
      throw e;
    }
  }

  private static route(worker: PoolWorker, m: FromWorker, onRecords: (records: TraceRecord[]) => void): void {
    if (m.type === 'trace') return onRecords(m.records);
    if (m.type === 'ready') return;
    const pending = worker.pending.get(m.call);
    if (!pending) return;
    if (m.type === 'terms') {
      for (const b of m.blocks) pending.terms?.onTerms(m.electrode, b.start, b.values, ringRelease(b.release));
      if (m.done) pending.terms?.onElectrodeDone(m.electrode);
      return;
    }
    if (m.type === 'local-electrode') return pending.onLocal?.(m.terms);
    worker.pending.delete(m.call);
    if ('tensors' in m) worker.tensors = m.tensors;
    if (m.type === 'failed') pending.reject(deserializeError(m.error));
    else pending.resolve(m);
  }

  get size(): number {
    return this.workers.length;
  }

  /** tensors the workers held after their last answer */
  tensorCount(): number {
    return this.workers.reduce((n, w) => n + w.tensors, 0);
  }

  private call(): number {
    if (this.terminated) throw new CancelledError();
    return this.nextCall++;
  }

  /**
   * Each worker gets a dataset once (a structured-clone copy) with the spikes of its own electrodes
   * only, the others' arrays left empty; later calls name it by id. The assignment is a function
   * of the dataset, so every fit of it hands each worker the same electrodes.
   */
  private datasetId(dataset: Dataset, assignment: number[][]): number {
    let id = this.datasetIds.get(dataset);
    if (id === undefined) {
      id = this.nextDatasetId++;
      this.datasetIds.set(dataset, id);
      this.workers.forEach((w, i) => {
        const share = workerShare(dataset, assignment[i] ?? []);
        w.thread.postMessage({ type: 'dataset', datasetId: id!, dataset: share } satisfies ToWorker);
      });
    }
    return id;
  }

  /**
   * Parts 0 … count − 1 of the occupancy sum, shared between the workers in contiguous runs (one
   * computation per fit instead of one per worker), in part order, with the workers' profiles.
   */
  async occupancyParts(
    dataset: Dataset, assignment: number[][], count: number, options: FitOptions, profile: boolean,
  ): Promise<{ parts: KdePart[]; profiles: (WorkerProfile | undefined)[] }> {
    const datasetId = this.datasetId(dataset, assignment);
    const call = this.call();
    const n = this.workers.length;
    const answers = await Promise.all(this.workers.map((w, i) => {
      const parts = Array.from({ length: Math.floor(((i + 1) * count) / n) - Math.floor((i * count) / n) }, (_, k) => Math.floor((i * count) / n) + k);
      return w.request({ type: 'occupancy', call, datasetId, parts, options, profile });
    }));
    const parts: KdePart[] = [];
    const profiles: (WorkerProfile | undefined)[] = [];
    for (const a of answers) {
      if (a.type !== 'occupancy-parts') throw new AppError('BUG', `engine worker answered ${a.type} to an occupancy request`);
      parts.push(...a.parts);
      profiles.push(a.profile);
    }
    return { parts, profiles };
  }

  /** The local likelihood's terms of each worker's shares with the model it fitted, to `onLocal` as each electrode is done. */
  async local(model: number, time: Float64Array, shares: DecodingShare[][], onLocal: (terms: LocalElectrodeTerms) => void): Promise<void> {
    const call = this.call();
    const answers = await Promise.all(this.workers.map((w, i) => w.request({ type: 'local', call, model, time, shares: shares[i] ?? [] }, undefined, onLocal)));
    for (const a of answers) if (a.type !== 'local-done') throw new AppError('BUG', `engine worker answered ${a.type} to a local likelihood`);
  }

  /** Fits electrodes assignment[w] on worker w; answers per worker, and the call that names the model. */
  async fit(
    dataset: Dataset, assignment: number[][], options: FitOptions, logOccupancy: Float64Array, profile: boolean,
  ): Promise<{ model: number; fits: WorkerFit[] }> {
    const datasetId = this.datasetId(dataset, assignment);
    const model = this.call();
    const answers = await Promise.all(this.workers.map((w, i) =>
      w.request({ type: 'fit', call: model, datasetId, electrodes: assignment[i] ?? [], options, logOccupancy, profile })));
    const fits = answers.map((a) => {
      if (a.type !== 'fitted') throw new AppError('BUG', `engine worker answered ${a.type} to a fit`);
      return { occupancy: a.occupancy, electrodes: a.electrodes, profile: a.profile, modelTensors: a.modelTensors };
    });
    this.modelTensors.set(model, fits.map((f) => f.modelTensors));
    return { model, fits };
  }

  /** What series' bound proves for each worker's asks with the model it fitted, per worker in the order asked. */
  async reach(model: number, asks: ElectrodeMarks[][]): Promise<SeriesReach[][]> {
    const call = this.call();
    const answers = await Promise.all(this.workers.map((w, i) => w.request({ type: 'reach', call, model, asks: asks[i] ?? [] })));
    return answers.map((a) => {
      if (a.type !== 'reached') throw new AppError('BUG', `engine worker answered ${a.type} to a reach request`);
      return a.reaches;
    });
  }

  /**
   * Computes each worker's planned electrodes with the model it fitted, under the strategies the
   * plan names; term blocks stream to `terms` as they arrive. Answers each worker's profile.
   */
  async predict(
    model: number, electrodes: PlannedTerms[][], options: Omit<PredictOptions, 'signal'>, profile: boolean, terms: TermListener,
  ): Promise<{ profiles: (WorkerProfile | undefined)[] }> {
    const call = this.call();
    const answers = await Promise.all(this.workers.map((w, i) =>
      w.request({ type: 'predict', call, model, electrodes: electrodes[i] ?? [], options, profile }, terms)));
    return { profiles: answers.map((a) => (a.type === 'predicted' ? a.profile : undefined)) };
  }

  /**
   * Frees a model's tensors in every worker. It returns at once (FittedModel.dispose is synchronous):
   * the tensor count drops now, and each worker's answer replaces it with what is really left.
   * A worker handles its messages in order, so the release lands before its next fit.
   */
  releaseSoon(model: number): void {
    const counts = this.modelTensors.get(model);
    this.modelTensors.delete(model);
    if (this.terminated) return;
    const call = this.call();
    this.workers.forEach((w, i) => {
      w.tensors -= counts?.[i] ?? 0;
      w.request({ type: 'release', call, model }).catch(() => undefined);
    });
  }

  /** Stops every worker now; pending calls reject with CancelledError. */
  async terminate(): Promise<void> {
    if (this.terminated) return;
    this.terminated = true;
    for (const w of this.workers) w.fail(new CancelledError());
    await Promise.all(this.workers.map((w) => w.thread.terminate()));
  }
}
