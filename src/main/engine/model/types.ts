/**
 * The sizes and options every strategy, estimate and dispatch is expressed in, defined once.
 */
import type { Calibration } from './calibrationTypes';

/** Sizes of one electrode's problem: E encoding spikes, S decoding spikes, P bins, D features, T rows. */
export interface ProblemSizes {
  nEnc: number;
  nDec: number;
  nBins: number;
  nFeatures: number;
  positionDims: number;
  /** output rows; 0 where only the device side matters */
  nTime: number;
}

/** How a strategy tiles its work, and the memory budget `auto` chooses under. */
export interface StrategyOptions {
  /** decoding spikes per block B */
  blockSize: number;
  /** encoding chunk C (chunked, streaming, chunked compensated e′) */
  encTileSize?: number;
  /** position tile Tp (logsumexp-tiled, inner tiles of chunked/streaming at D > 8) */
  posTileSize?: number;
  /** `auto`: keep each electrode's estimated peak under this many bytes */
  memoryBudgetBytes?: number;
  /** `auto`: the backend's calibrated throughput its cost model rates work at; without it `auto` follows NLD's dispatch */
  calibration?: Calibration;
  /**
   * `auto`: the executor runs compensated as one fused kernel per block on this electrode's shape
   * (the engine's WGSL kernel on webgpu), which `auto` then takes over the op graphs the cost model
   * rates; set per electrode by the plan, unset where the executor has no such kernel
   */
  fusedLikelihood?: boolean;
  /**
   * `auto`: what timing the candidates on a slice of this run's own data measured (the probe,
   * engineProcess/autoProbe): which of NLD's dispatch and series was faster there. `auto` follows
   * it wherever series' bound holds for the electrode (else NLD's dispatch, whatever was faster)
   */
  probed?: ProbedStrategy;
}

/** The probe's verdict as `auto` takes it. */
export interface ProbedStrategy {
  faster: 'series' | 'dispatch';
  /** what was measured, for the reason */
  summary: string;
}
