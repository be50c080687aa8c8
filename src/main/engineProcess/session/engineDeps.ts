/**
 * What the measurement loop needs from the engine, data and recorder folders, as one injectable
 * object: engineMain passes the real modules, tests can pass a small fake without tfjs.
 */
import type { BackendAvailability } from '../../../shared/api';
import type { BackendChoice, DataSource, RunConfig, StrategyChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import type { TraceRecord } from '../../../shared/events';
import type { BackendInfo, KernelStat } from '../../../shared/report';
import type { DeviceSpan, StrategyOptions } from '../../engine/model';
import type { Calibration } from '../../../shared/roofline';
import type { ChoiceContext, FitOptions, StageTimer } from '../../engine';
import type { EngineProbe, NonlocalResult, PredictOptions, WindowSummary } from '../../engine';

/** The fitted model as the loop uses it: host arrays plus a way to free its tensors. */
export interface FittedModel {
  occupancy: Float64Array;
  meanRates: Float64Array;
  summedGroundProcessIntensity: Float64Array;
  dispose(): void;
}

export interface KernelProfile<T> {
  result: T;
  kernels: unknown[];
  /** peak bytes held in tensors during fn; not finite when no kernel ran */
  peakBytes: number;
  /** the GPU's kernels during fn on the host's clock, where the backend times them (webgpu with timestamp queries) */
  deviceSpans?: DeviceSpan[];
  /** the lane those spans go on: the device's name */
  deviceLane?: string;
}

/** Loading progress: electrodes read so far (files that are read electrode by electrode). */
export interface DatasetLoadOptions {
  onProgress?: (p: { electrode: number; nElectrodes: number }) => void;
}

/** Receives each window's rows (startRow..startRow+rows−1, row-major) of a windowed predict, in order. */
export type WindowListener = (startRow: number, rows: number, values: Float64Array) => Promise<void> | void;

export interface EngineDeps {
  /** what this process can compute on; answers the service's probe (never run in the service) */
  listBackends(): Promise<BackendAvailability[]>;
  tfjsVersion(): string;
  loadDataset(source: DataSource, options?: DatasetLoadOptions): Promise<Dataset>;
  initBackend(choice: BackendChoice): Promise<BackendInfo>;
  /** `auto` for this run's data: the GPU only where it measured faster on a slice of it (absent: initBackend('auto')) */
  initBackendFor?(dataset: Dataset, ctx: ChoiceContext): Promise<BackendInfo>;
  /** the active backend's ceilings, from the per-machine cache in cacheDir or measured now */
  calibrate(backend: BackendInfo, cacheDir: string, onWarning: (message: string) => void): Promise<Calibration>;
  engineMemory(): { numTensors: number; numBytes: number };
  fitEncodingModel(dataset: Dataset, probe?: EngineProbe, options?: FitOptions): Promise<FittedModel>;
  /** the engine's one predict pipeline (engine/likelihood: plan, terms, ordered sum), its terms computed on this thread or by the pool */
  predictNonlocal(
    model: FittedModel,
    dataset: Dataset,
    strategy: StrategyChoice,
    options: PredictOptions,
    probe?: EngineProbe,
  ): Promise<NonlocalResult>;
  /**
   * the same predict over windows of output rows, each handed to onWindow before the next starts; its
   * values are a view that a later window reuses: copy what is kept beyond the call
   */
  predictNonlocalWindows(
    model: FittedModel,
    dataset: Dataset,
    strategy: StrategyChoice,
    options: PredictOptions,
    rowsPerWindow: number,
    onWindow: WindowListener,
    probe?: EngineProbe,
  ): Promise<WindowSummary>;
  predictLocal(model: FittedModel, dataset: Dataset, probe?: EngineProbe): Promise<Float64Array>;
  profileKernels<T>(fn: () => Promise<T>): Promise<KernelProfile<T>>;
  /**
   * Where the stage times of calls that do not wait for the device at each stage come from, and on
   * webgpu the timer of their GPU time (engine/backends/stageTimer.ts); absent: the host's clock.
   */
  openStageTimer?(): StageTimer;
  /** a failure as the person should read it (a lost GPU device said so); absent: as thrown */
  explainFailure?(e: unknown): Promise<unknown>;
  strategyOptionsFor(dataset: Dataset, config: RunConfig): StrategyOptions;
  aggregateKernels(kernels: unknown[]): KernelStat[];
  /** fit and predict spread over worker threads, each with its own backend; absent where there are none (test fakes) */
  startWorkers?(options: WorkerOptions): Promise<WorkerDeps>;
}

export interface WorkerOptions {
  workers: number;
  backend: BackendInfo['name'];
  /** the run clock's origin, so worker spans sit on the engine's timeline */
  originNs: string;
  trace: boolean;
  /** every trace batch a worker sends */
  onRecords: (records: TraceRecord[]) => void;
}

export interface WorkerDeps {
  deps: EngineDeps;
  /** stops every worker now (cancel, end of run) */
  stop(): Promise<void>;
}
