/**
 * The layout of a run's folder (<runs folder>/<run id>/), said once for everyone who reads or
 * writes one: the service (config, status, the event log, a running run's progress, the report in
 * three forms, the trace), the engine process (likelihoods with their axes, decode.json, the
 * posterior, the external engines' folders, its scratch), a merge of shard runs (merge.json), and
 * the CLI, whose `run --out` and `decode --out` copy the same names (a run's progress aside) into a
 * folder of the user's, so scripts find them at the same relative paths there. Every path here is
 * relative and '/'-separated: this folder imports no node, and path.join takes such a path as it
 * is on every platform.
 */
import type { StrategyChoice, StrategyName } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import { engineSlug } from '../../shared/externalEngines';
import type { AutoProbeRecord, BackendInfo, PosteriorReport, ShardInfo } from '../../shared/report';
import type { RecordingProjection } from '../../shared/projection';
import type { PosteriorGrid } from '../../shared/posteriorView';

/** What the service writes into a run's folder. */
export const RUN_FILES = {
  config: 'config.json',
  status: 'status.json',
  events: 'events.ndjson',
  report: 'report.json',
  reportMd: 'report.md',
  reportCsv: 'report.csv',
  trace: 'trace.json.gz',
  /**
   * the latest progress of a run while it runs, for pages another process serves (the service's
   * liveFolder/progressFile.ts); left as it was when the run ended, and never part of a result
   */
  progress: 'progress.json',
} as const;

/** the report in its three forms, in the order `--out` lists them */
export const REPORT_FILES = [RUN_FILES.report, RUN_FILES.reportMd, RUN_FILES.reportCsv] as const;

/** the trace as plain JSON, which `run --out DIR --trace-json` writes instead of RUN_FILES.trace */
export const PLAIN_TRACE_FILE = 'trace.json';

/** what a merge of shard runs leaves beside the report: each shard's numbers, for scripts */
export const MERGE_SUMMARY_FILE = 'merge.json';

/**
 * Where the engine process leaves likelihoods, for the service to read back: float32 .npy
 * (n_time, n_bins) in C order, plus axes.json with what a heatmap needs to label them.
 */
export const LIKELIHOOD_DIR = 'likelihood';
export const AXES_FILE = 'axes.json';
export const LIKELIHOOD_AXES_FILE = `${LIKELIHOOD_DIR}/${AXES_FILE}`;

export interface LikelihoodAxes {
  time: number[];
  /** first position dimension of each bin centre */
  binCenters: number[];
  /** the true position at each row (its x on a 2-D grid); null where unknown */
  truePosition?: (number | null)[];
  /** a 2-D decode's grid (shape and axis centres), so its map is drawn from the run folder alone */
  grid?: PosteriorGrid;
  /** a 2-D decode's true y at each row; null where unknown */
  truePositionY?: (number | null)[];
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
export const POSTERIOR_DIR = 'posterior';
export const POSTERIOR_FILES = {
  acausal: `${POSTERIOR_DIR}/acausal_posterior.npy`,
  causal: `${POSTERIOR_DIR}/causal_posterior.npy`,
  stateProbabilities: `${POSTERIOR_DIR}/acausal_state_probabilities.npy`,
  mapPosition: `${POSTERIOR_DIR}/map_position.npy`,
} as const;

/**
 * Scratch of a profiling run's posterior stage, removed when the stage ends: the outputs of every
 * HMM strategy but the last, and the likelihood the stage reads when the run saved none.
 */
export const POSTERIOR_WORK_DIR = 'posterior-work';
export const POSTERIOR_WORK_LIKELIHOOD = `${POSTERIOR_WORK_DIR}/likelihood.npy`;

/**
 * The external engines' folder: the run's data written once for all of them, and a folder per
 * engine, numbered in the run's order, where it writes its outputs (a posterior among them).
 */
export const EXTERNAL_DIR = 'external';
export const EXTERNAL_DATA_FILE = `${EXTERNAL_DIR}/data.npz`;

/** the folder of the run's `index`-th external engine (from 0) */
export function externalEngineDir(index: number, engine: string): string {
  return `${EXTERNAL_DIR}/${index + 1}-${engineSlug(engine)}`;
}

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
  /** `auto`'s probe, where it ran one: the candidates timed on a slice of this data and what it followed */
  autoProbe?: AutoProbeRecord;
}

/**
 * Every top-level name a result folder (`run`, `decode` or `merge --out DIR`) may hold: a new
 * result moves aside whatever of these an earlier one left, so no file of another run stands
 * beside it; anything else in DIR is a person's own and is never touched.
 */
export const RESULT_FOLDER_NAMES: readonly string[] = [
  ...REPORT_FILES, RUN_FILES.trace, PLAIN_TRACE_FILE, LIKELIHOOD_DIR, POSTERIOR_DIR, EXTERNAL_DIR, DECODE_SUMMARY_FILE, MERGE_SUMMARY_FILE,
];
