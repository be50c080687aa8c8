/**
 * The shape every evaluation strategy (kde-spec §7) shares. A strategy receives one electrode's
 * encoding data already on the device and that electrode's in-bounds decoding marks, and emits
 * the floored spike terms ℓ[k, p] block by block; the caller scatters them into output rows.
 */
import type * as tf from '@tensorflow/tfjs-core';

/**
 * Runs fn as a named stage (a span; on asynchronous backends it waits for the device). The probe
 * reads `args` when the span closes, so fn may fill in what it counted while it ran (args.work).
 */
export type StageFn = <T extends tf.TensorContainer>(name: string, fn: () => T, args?: Record<string, unknown>) => Promise<T>;

export interface StageTools {
  stage: StageFn;
  /** a grouping span (block b, chunk c) around asynchronous work */
  span: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
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
   * Computes ℓ for all decoding marks (S × D) of one electrode, calling emit once per block in
   * order. Must dispose every tensor it creates; emit's tensor is disposed by the caller.
   */
  run(ctx: ElectrodeContext, decMarks: tf.Tensor2D, tools: StageTools, emit: EmitBlock): Promise<void>;
}
