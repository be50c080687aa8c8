/**
 * What the encoding fit produces (fit.ts): each electrode's fitted spikes, marks and ground
 * process, the model the predicts read, and the options a caller fits with.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { StrategyName } from '../../../shared/config';
import type { PositionCache } from './positionCache';
import type { KeptFactor } from '../strategies';

export interface FittedElectrode {
  name: string;
  nFeatures: number;
  nEnc: number;
  waveformStd: number[];
  /** interpolated position of each in-bounds encoding spike, (nEnc × q) */
  encPositions: Float64Array;
  /** in-bounds encoding marks, (nEnc × nFeatures) */
  encFeatures: Float64Array;
  meanRate: number;
  /** log ground-process density log g_e at each bin (−Infinity when nEnc = 0) */
  logGroundDensity: Float64Array;
  /** Λ_e: clipped ground-process intensity per bin */
  groundProcessIntensity: Float64Array;
  /** device copies, null when the electrode has no encoding spikes */
  encPositionsTensor: tf.Tensor2D | null;
  encFeaturesTensor: tf.Tensor2D | null;
  /** the linear position kernel kept from the fit for the next predict (FitOptions.keepPositionKernelBytes) */
  keptPositionKernel?: tf.Tensor2D;
  /** what the strategy that follows keeps instead of the kernel (FitKeep; today series' factor), under its position-cache kind */
  keptSeriesFactor?: KeptFactor;
}

export interface EncodingModel {
  nBins: number;
  positionDims: number;
  positionStd: number[];
  /** interior bin centres, host (P × q) and device */
  centers: Float64Array;
  centersTensor: tf.Tensor2D;
  /** the position samples the occupancy KDE was built on (N × q) */
  occupancySamples: Float64Array;
  logOccupancy: Float64Array;
  occupancy: Float64Array;
  meanRates: Float64Array;
  summedGroundProcessIntensity: Float64Array;
  electrodes: FittedElectrode[];
  droppedNanPositions: number;
  /** position kernels kept for later predicts on this model (a decode's windows) */
  positionCache: PositionCache;
  dispose(): void;
}

export interface FitOptions {
  /** 'drop' (model layer, default) or 'propagate' (likelihood function called directly) */
  nanPositions?: 'drop' | 'propagate';
  /**
   * Keep each electrode's linear (E × P) position kernel, which the ground process is computed
   * from anyway, for the predict that follows (the reference strategy uses it as is), while the
   * kept kernels stay within this many bytes. Undefined or 0: keep none.
   */
  keepPositionKernelBytes?: number;
  /**
   * The strategy whose predicts follow: it has a say in what is kept (Strategy.fitKeep). Without
   * one, or for a strategy without a say, the kernel is kept.
   */
  keepFor?: StrategyName;
  /** keepFor: 'series', as the engine process asks it */
  keepOnlyForSeries?: boolean;
}
