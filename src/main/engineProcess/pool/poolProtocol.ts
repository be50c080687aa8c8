/**
 * The messages between the engine process's main thread and its pool workers (worker_threads).
 * Each worker has its own TensorFlow.js backend and records on a lane of its own; big arrays
 * (datasets, term blocks) travel by structured clone, term blocks in the worker's shared term ring
 * (termRing.ts) or, when it has no slot free, transferred without a copy.
 */
import type { BackendChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import type { SerializedError } from '../../../shared/errors';
import type { TraceRecord } from '../../../shared/events';
import type { BackendInfo } from '../../../shared/report';
import type { ElectrodeMarks, FitOptions, KdePart, LocalElectrodeTerms, PlannedTerms, PredictOptions } from '../../engine';
import type { SeriesReach } from '../../engine/model';
import type { TermRelease } from './termRing';

/** worker i records on lane WORKER_TID_BASE + i, after the engine process's own lane (1) */
export const WORKER_TID_BASE = 2;

export interface WorkerInit {
  worker: number;
  backend: BackendChoice;
  /** the run clock's origin, so worker spans sit on the engine's timeline */
  originNs: string;
  trace: boolean;
}

/** One electrode's decoding spikes for one local likelihood call. */
export interface DecodingShare {
  electrode: number;
  times: Float64Array;
  features: Float64Array;
}

export type ToWorker =
  | { type: 'dataset'; datasetId: number; dataset: Dataset }
  /** parts `parts` of the occupancy sum (each worker computes its share once per fit) */
  | { type: 'occupancy'; call: number; datasetId: number; parts: number[]; options: FitOptions; profile: boolean }
  /** fit these electrodes on the log occupancy the workers' parts were merged into */
  | { type: 'fit'; call: number; datasetId: number; electrodes: number[]; options: FitOptions; logOccupancy: Float64Array; profile: boolean }
  /** what series' bound proves for these electrodes' marks with the model fitted by call `model` (`auto` weighs it in the plan) */
  | { type: 'reach'; call: number; model: number; asks: ElectrodeMarks[] }
  /** the terms of these electrodes, in this order, with the model fitted by call `model`, each under the strategy its plan names */
  | { type: 'predict'; call: number; model: number; electrodes: PlannedTerms[]; options: Omit<PredictOptions, 'signal'>; profile: boolean }
  /** the local likelihood's terms of this worker's electrodes (in `shares`' order) with the model fitted by call `model`, on this grid */
  | { type: 'local'; call: number; model: number; time: Float64Array; shares: DecodingShare[] }
  /** dispose the tensors of the model fitted by call `model` (the caller's FittedModel.dispose) */
  | { type: 'release'; call: number; model: number };

/** What one electrode's fit tells the main thread: enough to assemble the model's host arrays. */
export interface FitSummary {
  electrode: number;
  nEnc: number;
  meanRate: number;
  groundProcessIntensity: Float64Array;
}

/** A worker's tf.profile of its share of one call. */
export interface WorkerProfile {
  kernels: unknown[];
  peakBytes: number;
}

/** One block of an electrode's spike terms, as a 'terms' message carries it. */
export interface TermBlock {
  start: number;
  values: Float32Array;
  release?: TermRelease;
}

export type FromWorker =
  | { type: 'ready'; backend: BackendInfo }
  /** the occupancy parts asked for, in the order asked */
  | { type: 'occupancy-parts'; call: number; parts: KdePart[]; profile?: WorkerProfile }
  | { type: 'trace'; records: TraceRecord[] }
  /** `modelTensors`: how many of the worker's tensors belong to this model (freed by its release) */
  | {
      type: 'fitted'; call: number; occupancy: Float64Array; electrodes: FitSummary[]; profile?: WorkerProfile;
      tensors: number; modelTensors: number;
    }
  /**
   * blocks of electrode e's terms in order, each (B × P) float32 from row `start` of its decoding
   * spikes, a view of the worker's term ring to release once added when it has `release`
   * (termRing.ts); `done`: the electrode's last message (its blocks, if any, come first). A few
   * blocks travel together: each message costs the worker time while the main thread is busy.
   */
  | { type: 'terms'; call: number; electrode: number; blocks: TermBlock[]; done: boolean }
  /** the reach of each electrode asked, in the order asked */
  | { type: 'reached'; call: number; reaches: SeriesReach[] }
  | { type: 'predicted'; call: number; profile?: WorkerProfile; tensors: number }
  /** one of the worker's electrodes' local likelihood terms, as each is done; `local-done` after the last */
  | { type: 'local-electrode'; call: number; terms: LocalElectrodeTerms }
  | { type: 'local-done'; call: number }
  | { type: 'released'; call: number; tensors: number }
  | { type: 'failed'; call: number; error: SerializedError };
