/**
 * Engine-facing types: the probe the engine reports through (defined in the tfjs-free model, and
 * implemented by the recorder, so the engine never imports it), the options of a predict call, and
 * what a predict returns.
 */
import type { StrategyName } from '../../shared/config';
import type { StrategyOptions } from './model';

export { NULL_PROBE, type EngineProbe } from './model';

/** How to tile a predict, plus the run's cancel signal: once aborted, predict stops at the next block. */
export interface PredictOptions extends StrategyOptions {
  signal?: AbortSignal;
  /**
   * Keep each electrode's position kernel with the model (within the memory budget) for the next
   * predict on it: a windowed decode sets it; one predict per model gains nothing from it.
   */
  keepPositionKernels?: boolean;
  /** what the kept position kernels may hold; default the memory budget (a pool splits it over its workers) */
  positionKernelBudgetBytes?: number;
  /** a windowed decode: the most likelihood one predict computes at once (default DECODE_BATCH_BYTES, windows.ts) */
  windowBatchBytes?: number;
  /**
   * On an asynchronous backend (webgpu), whether each stage span waits for the device: default
   * true, so a span holds its stage's device time, at the cost of a readback per stage. False lets
   * the device run ahead: a predict then reads back once, where the device sums its rows
   * (likelihood/deviceRowSums.ts), and the GPU's own time per kernel comes from the GPU timer.
   */
  stageSync?: boolean;
}

export interface NonlocalResult {
  /** (nTime × nBins) row-major, float64 accumulated on the host */
  logLikelihood: Float64Array;
  nTime: number;
  nBins: number;
  /** strategy each electrode ran */
  resolved: StrategyName[];
  /** per electrode, why a dispatch chose what it chose ('' for a named strategy); absent where nobody said */
  resolvedReasons?: string[];
  /** share of spike terms on the LOG_EPS floor, per electrode (NaN when it had no spikes) */
  floorShare: number[];
  /** spike terms computed per electrode */
  nTerms: number[];
  /**
   * Lets the next predict on this thread reuse the likelihood's memory (fresh pages cost more than
   * the sum): call it once the likelihood has been read; `logLikelihood` must not be read after.
   */
  release?: () => void;
}

/** What a windowed predict did, for the decode summary. */
export interface WindowSummary {
  nTime: number;
  nBins: number;
  windows: number;
  /** the strategy each electrode ran, from the first window that decoded it */
  resolved: StrategyName[];
  /** why a dispatch chose it, from the same window ('' where nobody said) */
  resolvedReasons: string[];
  flooredTerms: number;
  totalTerms: number;
  /**
   * Each batch of windows decoded together (windows.ts): its rows and the time from the batch
   * before it to its last window handed over, the first's from the start. A batch's windows are
   * handed over back to back once it is computed, so the batch is what has a time of its own.
   */
  batches: BatchTime[];
}

export interface BatchTime {
  rows: number;
  ms: number;
}
