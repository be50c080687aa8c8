/**
 * Where the engine process leaves likelihoods in a run's folder, for the service to read back:
 * float32 .npy (n_time, n_bins) in C order, plus axes.json with what a heatmap needs to label them.
 * A decode run also leaves decode.json, what it measured, beside them.
 */
import type { StrategyChoice, StrategyName } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import type { BackendInfo, PosteriorReport, ShardInfo } from '../../shared/report';
import type { RecordingProjection } from '../../shared/projection';

export const LIKELIHOOD_DIR = 'likelihood';
export const AXES_FILE = 'axes.json';

export interface LikelihoodAxes {
  time: number[];
  /** first position dimension of each bin centre */
  binCenters: number[];
  truePosition?: number[];
}

/** relative path of a strategy's (or 'local') likelihood inside the run folder */
export function likelihoodRelPath(name: string): string {
  return `${LIKELIHOOD_DIR}/${name}.npy`;
}

/** a likelihood still being written carries this suffix; it is renamed when the last row is in */
export const PARTIAL_SUFFIX = '.partial';

/**
 * What a decode's posterior stage writes into the run folder (and `decode --out DIR`), as float32
 * .npy in NLD's layout (posterior-spec §12): the posteriors T × state bins with NaN in non-interior
 * bins, the state probabilities T × states, the MAP position per row.
 */
export const POSTERIOR_FILES = {
  acausal: 'posterior/acausal_posterior.npy',
  causal: 'posterior/causal_posterior.npy',
  stateProbabilities: 'posterior/acausal_state_probabilities.npy',
  mapPosition: 'posterior/map_position.npy',
} as const;

/** what decode.json and the report say of the posterior; the files are always POSTERIOR_FILES */
export interface PosteriorSummary extends PosteriorReport {
  files: typeof POSTERIOR_FILES;
}

/** decode.json: what a decode run measured (also copied to `kde-profiler decode --out DIR`) */
export const DECODE_SUMMARY_FILE = 'decode.json';

export interface DecodeSummary {
  dataset: DatasetSummary;
  /** how the dataset compares with the presets, one sentence */
  scale: string;
  backend: BackendInfo;
  strategy: StrategyChoice;
  /** the strategy each electrode ran */
  resolved: StrategyName[];
  /** why a dispatch chose it, per electrode (from the first window that decoded it) */
  resolvedReasons?: string[];
  estimatedPeakDeviceBytes: number;
  estimateFormula: string;
  rowsPerChunk: number;
  windows: number;
  /** share of spike terms on the LOG_EPS floor; null when there were none */
  floorShare: number | null;
  loadMs: number;
  fitMs: number;
  decodeMs: number;
  /** the engine process's peak resident set size */
  peakRssBytes: number;
  /** relative to the folder holding decode.json */
  likelihoodFile: string;
  shape: [number, number];
  /** set when the decode computed one shard of the electrodes (`--shard I/N`) */
  shard?: ShardInfo;
  /** hash of the whole dataset's inputs and likelihood parameters, taken before any shard split */
  fingerprint?: string;
  /** the state-space posterior, when the decode asked for one */
  posterior?: PosteriorSummary;
  /** a decode of part of a recording: the whole recording's time and peak memory at this decode's rates */
  projection?: RecordingProjection;
}
