/** A stage of a strategy's warm repeats as the report keeps it: its time, the work it counted, what the GPU did in it. */

/**
 * Where a stage's time comes from. 'host': the host's wall time of the stage's spans (cpu, wasm,
 * tensorflow: an op has finished when it returns). 'gpu': the device's own time of the work the
 * stage's spans issued, from timestamp queries (webgpu: the calls run as a decode does, nothing
 * waiting for the device at a stage, so the spans' host time is only the time to queue the work).
 * 'unsplit': an asynchronous device that cannot time its work: the stages did not wait for it, so
 * no time of a stage is known, only the whole call's.
 */
export type StageClock = 'host' | 'gpu' | 'unsplit';

export interface ElectrodeStageTime {
  /** the electrode's index in the dataset */
  electrode: number;
  calls: number;
  /** on the stage's clock */
  totalMs: number;
}

export interface StageTime {
  name: string;
  calls: number;
  /** on the stage's `clock`: the GPU's time where it is 'gpu'; 0 where it is 'unsplit' (not known) */
  totalMs: number;
  /** totalMs less the time of the stages directly inside it, on the same clock */
  selfMs: number;
  /** what totalMs and selfMs measure; absent: 'host' */
  clock?: StageClock;
  /** where the clock is not the host's: the host's wall time of the stage's spans (on webgpu, the time to queue its work) */
  hostMs?: number;
  hostSelfMs?: number;
  /**
   * The work the engine counted in this stage's spans, where the formulas of the sizes do not give
   * it (the compensated strategy's own kernels: the product skips the position bins a chunk of
   * spikes cannot reach, and the weights' exps run in the mark-kernel stage; the series strategy,
   * whose order and reach follow from the marks); the roofline uses it instead of its formulas.
   * Present only when every span of the stage counted its work.
   */
  work?: CountedWork;
  /**
   * For the electrode stage: its time per electrode (by index in the dataset, in index order). The
   * electrode spans share one name, so this is where the time of each electrode is kept.
   */
  byElectrode?: ElectrodeStageTime[];
  /**
   * What the GPU was asked to do in this stage's spans, added up (webgpu: counted on the device's
   * own methods): compute dispatches, pipelines compiled and bytes read back. Present only when
   * every span of the stage carried the counts.
   */
  gpu?: StageGpuActivity;
}

export interface StageGpuActivity {
  dispatches: number;
  /** compute pipelines created (each a shader compilation); in warm repeats a finding */
  pipelines: number;
  readBytes: number;
}

/** Work as the roofline counts it (its rules: engine/model/opWork.ts). */
export interface CountedWork {
  /** 2·m·k·n of each matmul */
  gemmFlops: number;
  /** elementwise arithmetic, compares and reductions */
  otherFlops: number;
  exps: number;
  logs: number;
  /** every byte read and written */
  bytes: number;
  /** the bytes of ops bound by memory: elementwise arithmetic, reductions, copies, host scatter */
  streamBytes: number;
}
