/**
 * The shape every evaluation strategy (kde-spec §7) shares. A strategy receives one electrode's
 * encoding data already on the device and that electrode's in-bounds decoding marks, and emits
 * the floored spike terms ℓ[k, p] block by block; the caller scatters them into output rows.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { Work } from '../model';

/**
 * Runs fn as a named stage (a span; on asynchronous backends it waits for the device). The probe
 * reads `args` when the span closes, so fn may fill in what it counted while it ran (args.work).
 */
export type StageFn = <T extends tf.TensorContainer>(name: string, fn: () => T, args?: Record<string, unknown>) => Promise<T>;

export interface StageTools {
  stage: StageFn;
  /** a grouping span (a block, a chunk) around asynchronous work; which one it was goes in args */
  span: <T>(name: string, fn: () => Promise<T>, args?: Record<string, unknown>) => Promise<T>;
  /** a marker in the trace with what a strategy decided (the series' order and coverage) */
  instant: (name: string, args: Record<string, unknown>) => void;
}

export interface ElectrodeContext {
  /** (E × Q) encoding spike positions, (E × D) encoding marks: owned by the fitted model */
  encPositions: tf.Tensor2D;
  encMarks: tf.Tensor2D;
  /** (P × Q) interior bin centres: owned by the fitted model */
  centers: tf.Tensor2D;
  positionStd: number[];
  waveformStd: number[];
  nEnc: number;
  nBins: number;
  nFeatures: number;
  /** (P,) log μ_e − log π_p, −Infinity where the occupancy is not > 0: owned by the caller */
  bias: tf.Tensor1D;
  blockSize: number;
  encTileSize: number;
  posTileSize: number;
  /**
   * The electrode's whole (E × P) position kernel in the form `kind` (a strategy's own), kept with
   * the fitted model while the memory budget allows so later calls on the model (the windows of a
   * decode) reuse it; `owned`: it was not kept, and the strategy frees it when done.
   */
  positionKernel<T extends tf.Tensor[]>(kind: string, build: () => Promise<T>): Promise<{ tensors: T; owned: boolean }>;
}

/** Receives block b's spike terms (rows start..start+B−1 of the electrode's decoding spikes). */
export type EmitBlock = (start: number, terms: tf.Tensor2D) => Promise<void>;

export interface Strategy {
  /**
   * What a fit followed by this strategy keeps for an electrode in place of its linear position
   * kernel; without it the fit keeps the kernel itself (the reference reads it as is).
   */
  fitKeep?: (electrode: FitElectrode) => FitKeep;
  /**
   * Computes ℓ for all decoding marks (S × D) of one electrode, calling emit once per block in
   * order. Must dispose every tensor it creates; emit's tensor is disposed by the caller.
   */
  run(ctx: ElectrodeContext, decMarks: tf.Tensor2D, tools: StageTools, emit: EmitBlock): Promise<void>;
}

/** One electrode as the fit holds it when it asks a strategy what to keep. */
export interface FitElectrode {
  /** in-bounds encoding marks, (nEnc × D) */
  encFeatures: Float64Array;
  nEnc: number;
  waveformStd: number[];
  nBins: number;
}

/** A tensor kept with the fitted model, under its position-cache kind. */
export interface KeptFactor {
  kind: string;
  factor: tf.Tensor2D;
}

/**
 * A strategy's say in what the fit keeps for one electrode (within the fit's byte budget, and
 * only where positions and bins are finite): nothing, the linear position kernel, or a factor of its
 * own, built either from the kernel once the fit has it or in one pass without the kernel.
 */
export interface FitKeep {
  /** false: keep nothing (the strategy would not read it) */
  wanted: boolean;
  /** where the strategy builds what it keeps with the ground process, the kernel never in memory */
  fused?: {
    bytes: number;
    /** the work beside the ground process's */
    work: Work;
    /** the kernel's column maxima and rescaled sums (as linearPositionKernel gives them) and the factor */
    build(positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush: boolean): { colMax: tf.Tensor1D; colSum: tf.Tensor1D; kept: KeptFactor };
  };
  /** where it keeps, in the kernel's place, a factor built from the kernel */
  fromKernel?: {
    /** the fit's span for the build */
    span: string;
    work: Work;
    build(kernel: tf.Tensor2D): KeptFactor;
  };
}

/** What the fit keeps for a strategy that has no say: the kernel. */
export const KEEP_THE_KERNEL: FitKeep = { wanted: true };
