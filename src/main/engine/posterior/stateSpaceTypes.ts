/**
 * The shape of a state space (posterior-spec §1, §3): states in constructor order, their bins, and
 * the interior state bins the HMM runs on.
 */
import type { ContinuousKind } from './continuousTransitions';
import type { PlaceGrid } from './grid';
import type { StructuredTransition } from './structuredTransition';

export type PosteriorModel = 'decoder' | 'detector';

/**
 * One-bin states (Local without a position std, No-Spike), spatial ones over every grid bin, and
 * the Local state over every grid bin when it has a position std (its likelihood adds the kernel
 * of localPositionKernel.ts; NLD's multi-bin Local).
 */
export type StateKind = 'local' | 'noSpike' | 'spatial' | 'spatialLocal';

/** Whether a state spans the grid's bins (rather than being one bin). */
export function spansGrid(kind: StateKind): boolean {
  return kind === 'spatial' || kind === 'spatialLocal';
}

export interface StateSpaceOptions {
  /** the random walk's VARIANCE in position units² (6.0, so σ ≈ 2.449) */
  movementVar?: number;
  /** S × S, rows from and columns to, in state order */
  discreteTransition?: number[][];
  /** S probabilities of the first state */
  discreteInitial?: number[];
  /** spikes per second a state without spikes still allows (1e-10) */
  noSpikeRate?: number;
  /** the detector's Local state over every bin with this kernel std (0: the delta kernel); absent: one bin */
  localPositionStd?: number;
}

export interface StateLayout {
  model: PosteriorModel;
  grid: PlaceGrid;
  stateNames: string[];
  stateKinds: StateKind[];
  /** continuousKinds[from][to] */
  continuousKinds: ContinuousKind[][];
  discreteTransition: number[][];
  discreteInitial: number[];
  movementVar: number;
  noSpikeRate: number;
  /** the multi-bin Local state's kernel std, when it has one */
  localPositionStd?: number;
  /** grid bins, interior or not (B) */
  nBins: number;
  /** interior grid bins (P) */
  nInteriorBins: number;
  /** grid bin of each interior bin, in order */
  interiorBins: Int32Array;
  /** all state bins: one-bin states give 1, spatial states B */
  nStateBins: number;
  /** state of each state bin (NLD's state_ind) */
  stateIndex: Int32Array;
  isInteriorStateBin: Uint8Array;
  /** interior state bins (N), the HMM's size */
  nInteriorStateBins: number;
  /** state of each interior state bin */
  interiorStateIndex: Int32Array;
  /** state bin (output column) of each interior state bin */
  interiorStateBinColumn: Int32Array;
  /** first interior state bin of each state, and N at the end (S + 1 entries) */
  stateStart: Int32Array;
  /** the HMM's initial distribution over interior state bins (§6), float32 */
  initial: Float32Array;
}

/** The combined transition A = C ⊙ D over interior state bins, each form built on first use. */
export interface Transitions {
  /** N × N float64, rows from, as upstream builds it before the cast */
  readonly dense64: Float64Array;
  /** N × N float32: the matrix the HMM multiplies by */
  readonly dense: Float32Array;
  /** the same float32 matrix as bands and rank-one blocks */
  readonly structured: StructuredTransition;
}

export interface StateSpace extends StateLayout {
  transitions: Transitions;
}
