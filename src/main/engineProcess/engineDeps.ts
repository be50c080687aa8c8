/**
 * What the measurement loop needs from the engine, data and recorder folders, as one injectable
 * object: engineMain passes the real modules, tests can pass a small fake without tfjs.
 */
import type { BackendAvailability } from '../../shared/api';
import type { BackendChoice, DataSource, RunConfig, StrategyChoice } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import type { SpanRecord } from '../../shared/events';
import type { BackendInfo, KernelStat, StageTime } from '../../shared/report';
import type { StrategyOptions } from '../engine/model';
import type { EngineProbe, NonlocalResult } from '../engine/types';

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
}

export interface EngineDeps {
  /** what this process can compute on; answers the service's probe (never run in the service) */
  listBackends(): Promise<BackendAvailability[]>;
  tfjsVersion(): string;
  loadDataset(source: DataSource): Promise<Dataset>;
  initBackend(choice: BackendChoice): Promise<BackendInfo>;
  engineMemory(): { numTensors: number; numBytes: number };
  fitEncodingModel(dataset: Dataset, probe?: EngineProbe): Promise<FittedModel>;
  predictNonlocal(
    model: FittedModel,
    dataset: Dataset,
    strategy: StrategyChoice,
    options: StrategyOptions,
    probe?: EngineProbe,
  ): Promise<NonlocalResult>;
  predictLocal(model: FittedModel, dataset: Dataset, probe?: EngineProbe): Promise<Float64Array>;
  profileKernels<T>(fn: () => Promise<T>): Promise<KernelProfile<T>>;
  strategyOptionsFor(dataset: Dataset, config: RunConfig): StrategyOptions;
  aggregateKernels(kernels: unknown[]): KernelStat[];
  stageTimes(spans: SpanRecord[]): StageTime[];
}
