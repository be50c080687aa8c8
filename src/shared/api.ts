/**
 * ProfilerApi: the one contract between the renderer and the service, whatever carries it
 * (Electron IPC through the preload, or WebSocket in web mode). Every method's arguments are
 * validated at runtime on the service side; errors arrive as AppError (see errors.ts).
 */
import type { BackendChoice, BackendName, DataSource, PosteriorMethod, PosteriorModel, PresetName, RunConfig, StrategyName } from './config';
import type { DatasetSummary } from './dataset';
import type { ProgressInfo, RunEvent, RunLogLine } from './events';
import type { NpzExport, NwbRecipe, NwbScanView, SavedRecipe } from './nwb';
import type { PosteriorRequest, PosteriorView } from './posteriorView';
import type { PosteriorMap, PosteriorMapRequest } from './posteriorViewMap';
import type { Report } from './report';
import type { RunIndexEntry, RunPage, RunPageRequest } from './runList';
import type { SweepResult, SweepSummary } from './sweep';
import type { CounterSeries, SpanAreaRequest, SpanAreaSummary, SpanSearchRequest, SpanSearchResult, TimelineRequest, TimelineView } from './timelineView';

export * from './timelineView';
export * from './runList';

export interface BackendAvailability {
  name: BackendName;
  available: boolean;
  /** device name when available, the reason when not ("tfjs-node-gpu is not installed") */
  detail: string;
  isGpu: boolean;
}

export interface SystemInfo {
  version: string;
  tfjsVersion: string;
  node: string;
  platform: string;
  cpus: number;
  totalMemoryBytes: number;
  backends: BackendAvailability[];
  defaultBackend: BackendChoice;
}

export interface PresetInfo {
  name: PresetName;
  nElectrodes: number;
  nTimeEncoding: number;
  nTimeDecoding: number;
  meanEncodingSpikes: number;
  meanDecodingSpikes: number;
  nPositionBins: number;
}

export interface ValidationFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  key?: string;
  electrode?: string;
  index?: number;
  fix?: string;
}

/** A light view of the data for plotting: decimated position and per-electrode spike times. */
export interface DataPreview {
  positionTime: number[];
  position: number[];
  spikeTimes: { electrode: string; times: number[] }[];
}

export interface DataInspection {
  source: DataSource;
  summary: DatasetSummary | null;
  findings: ValidationFinding[];
  preview: DataPreview | null;
  /** how the data compares with the synthetic presets (spikes, electrodes, bins), in one sentence */
  scale?: string;
}

/** A likelihood strategy's peak device memory (tensors), for the largest electrode. */
export interface MemoryEstimate {
  strategy: StrategyName;
  peakBytes: number;
  /** the formula in words, e.g. "B·E·P = 100·1001·2000 floats" */
  formula: string;
}

/**
 * The posterior stage's own peak host memory (its typed arrays: transition, per-row evidence,
 * one window of rows), by the formula the decode reports beside its measured figure. It runs after
 * the likelihood, in the same engine process.
 */
export interface PosteriorMemoryEstimate {
  model: PosteriorModel;
  method: PosteriorMethod;
  /** rows the stage holds at once */
  rowsPerWindow: number;
  peakBytes: number;
  formula: string;
}

/** A run's memory before it starts: each strategy's, in the order asked, and the posterior stage's per method the run asks for (none: empty). */
export interface RunMemoryEstimate {
  strategies: MemoryEstimate[];
  posterior: PosteriorMemoryEstimate[];
}

export interface RunDetail {
  entry: RunIndexEntry;
  config: RunConfig;
  report: Report | null;
  /**
   * A run not completed: while it runs, its latest progress (of this service's run, or saved by the
   * process running it), so a page opening it late reads at once what the terminal shows; once it
   * was cancelled or failed, the last progress it recorded, which says how far it got.
   */
  progress?: ProgressInfo;
  /** The newest lines of the run's log (MAX_KEPT_LOG_LINES at most), so a page opening late shows
   *  what the terminal printed; absent when the run kept none. */
  log?: RunLogLine[];
}

/**
 * Which part of a saved likelihood to show, and how finely. Every key may be left out: the whole
 * decode at the default size, raw log likelihood.
 */
export interface LikelihoodRequest {
  /** first time row shown (default 0) */
  startRow?: number;
  /** one past the last time row shown (default: all rows); must be after startRow */
  endRow?: number;
  /** at most this many displayed rows; longer ranges are reduced by blocks of rows */
  maxRows?: number;
  /** at most this many displayed columns; more position bins are reduced by groups */
  maxCols?: number;
  /** each time row minus its own maximum before blocks are reduced (shows where each row peaks) */
  relative?: boolean;
}

/** How a decode run cut its rows into windows (decode.json): window k is [k·rowsPerWindow, …), the last one runs to the end. */
export interface LikelihoodWindows {
  rowsPerWindow: number;
  count: number;
}

/**
 * A range of a saved likelihood, reduced to at most the requested rows × cols. Displayed row i
 * stands for the time rows [startRow + ⌊i·n/rows⌋, startRow + ⌊(i+1)·n/rows⌋) with
 * n = endRow − startRow; each cell is the maximum over its block of rows and group of bins.
 * Over the WebSocket, −∞ and NaN arrive as null.
 */
export interface LikelihoodView {
  strategy: string;
  /** time rows in the whole decode */
  nTime: number;
  nBins: number;
  /** the time rows shown: [startRow, endRow) */
  startRow: number;
  endRow: number;
  /** time rows per displayed row, on average ((endRow − startRow) / rows); 1 at full resolution */
  rowsPerRow: number;
  /** values are relative to each time row's maximum */
  relative: boolean;
  /** row-major (rows × cols) after reduction, float values */
  values: number[];
  rows: number;
  cols: number;
  binCenters: number[];
  /** the time of each displayed row's first time row */
  time: number[];
  /** per displayed row: the bin centre where the block's summed log likelihood peaks (the argmax of a single row) */
  decodedPosition: number[];
  /** per displayed row: the mean true position over its block, where the dataset knew it */
  truePosition?: number[];
  /** how the decode run cut its rows into windows; absent for runs that were not decode runs */
  windows?: LikelihoodWindows;
  strategies: string[];
}

export interface ComparisonRow {
  metric: string;
  a: number | null;
  b: number | null;
  deltaPct: number | null;
  regression: boolean;
  /** bootstrap 95 % interval of B's median ÷ A's */
  ratioCi95?: [number, number];
  /** the interval holds 1: the change is within the runs' noise */
  withinNoise?: boolean;
  /** what decided `regression`: the interval and the threshold, the threshold alone (memory), or nothing (one sample) */
  judgedBy?: 'interval' | 'threshold' | 'not judged';
}

export interface Comparison {
  a: RunIndexEntry;
  b: RunIndexEntry;
  thresholdPct: number;
  rows: ComparisonRow[];
  regressed: boolean;
  /**
   * A timing would regress, but A or B was measured on a busy machine: the change may come from the
   * load, so the comparison says neither regression nor none (the CLI exits 4, not 3)
   */
  inconclusive?: boolean;
  /**
   * The runs measured on a busy machine: whatever the verdict, its timings may be the load's, so it
   * is read with that caveat (a "no regression" as much as a regression)
   */
  busy?: ('A' | 'B')[];
  verdict: string;
}

export type ExportFormat = 'trace' | 'trace-json' | 'json' | 'md' | 'csv';

/**
 * How a Perfetto bundle of several runs' traces lines them up: all starting together (to compare
 * them), or where their creation times put them.
 */
export const BUNDLE_ALIGNMENTS = ['start', 'wall-clock'] as const;
export type BundleAlignment = (typeof BUNDLE_ALIGNMENTS)[number];

export interface ExportResult {
  fileName: string;
  mime: string;
  /** base64 of the file's bytes (web mode downloads it; Electron saves through a dialog) */
  base64?: string;
  /** where Electron saved it */
  savedPath?: string;
}

/** How exportDataAsNpz may treat a file already at the output path. */
export interface NpzExportOptions {
  /** replace it; left out or false, the call fails with EXISTS naming the path and nothing is written */
  overwrite?: boolean;
}

export interface ProfilerApi {
  getInfo(): Promise<SystemInfo>;
  listPresets(): Promise<PresetInfo[]>;
  inspectData(source: DataSource): Promise<DataInspection>;
  estimateMemory(config: RunConfig): Promise<RunMemoryEstimate>;
  startRun(config: RunConfig): Promise<{ runId: string }>;
  cancelRun(runId: string): Promise<void>;
  /** every run, newest first; a large runs folder is better read a page at a time (listRunPage) */
  listRuns(): Promise<RunIndexEntry[]>;
  /**
   * A page of the runs, newest first, with the total: what a view of a large run history asks for.
   * Optional only in the type, so that stand-ins of the whole API written before it still stand:
   * the service and both transports always carry it.
   */
  listRunPage?(request?: RunPageRequest): Promise<RunPage>;
  getRun(runId: string): Promise<RunDetail>;
  deleteRun(runId: string): Promise<void>;
  getTimeline(runId: string, request: TimelineRequest): Promise<TimelineView>;
  getCounters(runId: string): Promise<CounterSeries[]>;
  findSpan(runId: string, request: SpanSearchRequest): Promise<SpanSearchResult>;
  summarizeArea(runId: string, request: SpanAreaRequest): Promise<SpanAreaSummary>;
  /** a range of a saved likelihood, reduced for a heatmap; no request (service callers only): the whole decode */
  getLikelihood(runId: string, strategy: string, request?: LikelihoodRequest): Promise<LikelihoodView>;
  /** a range of a decode run's posterior over position with its states and MAP, reduced for a heatmap; NOT_FOUND when the run has none */
  getPosterior(runId: string, request?: PosteriorRequest): Promise<PosteriorView>;
  /** a 2-D decode's posterior at one time row, as a map over the open field; BAD_ARGUMENT for a 1-D decode or a row past its end */
  getPosteriorMap(runId: string, request: PosteriorMapRequest): Promise<PosteriorMap>;
  compareRuns(runA: string, runB: string, thresholdPct: number): Promise<Comparison>;
  exportRun(runId: string, format: ExportFormat): Promise<ExportResult>;
  /** events of one run, or of all runs with '*'; returns the unsubscribe function */
  subscribe(runId: string, listener: (event: RunEvent) => void): () => void;
  /** desktop only: a native open dialog; web mode returns null and the UI offers a path field */
  pickDataFile(): Promise<string | null>;
  /**
   * NWB/HDF5: the candidates of one import's files (one per tetrode is common) and the recipe to
   * start from; a single recipe path scans the files it names.
   */
  scanData(paths: string[]): Promise<NwbScanView>;
  /** NWB/HDF5: checks the mapping and saves it next to the data file (x.nwb → x.nwb.recipe.json) */
  saveRecipe(recipe: NwbRecipe, dataPath: string): Promise<SavedRecipe>;
  /**
   * writes what a source maps to as clusterless-npz/1; outPath (absolute) null = next to the data
   * file; an existing file there is replaced only with `overwrite`, otherwise the call fails with EXISTS
   */
  exportDataAsNpz(source: DataSource, outPath: string | null, options?: NpzExportOptions): Promise<NpzExport>;
  /** the sweeps of the runs folder (`kde-profiler sweep`), newest first */
  listSweeps(): Promise<SweepSummary[]>;
  /** one sweep: its values, runs, medians with intervals, slopes and crossovers */
  getSweep(sweepId: string): Promise<SweepResult>;
}

/** Method names as they travel: IPC channels are `profiler:<method>`, WS messages carry the method. */
export const API_METHODS = [
  'getInfo', 'listPresets', 'inspectData', 'estimateMemory', 'startRun', 'cancelRun', 'listRuns', 'listRunPage', 'getRun',
  'deleteRun', 'getTimeline', 'getCounters', 'findSpan', 'summarizeArea', 'getLikelihood', 'getPosterior', 'getPosteriorMap', 'compareRuns', 'exportRun', 'pickDataFile',
  'scanData', 'saveRecipe', 'exportDataAsNpz', 'listSweeps', 'getSweep',
] as const;
export type ApiMethod = (typeof API_METHODS)[number];
export const EVENT_CHANNEL = 'profiler:event';
export const channelOf = (m: ApiMethod): string => `profiler:${m}`;

/**
 * Desktop only, beside ProfilerApi: the preload exposes it as `window.profilerFiles` (absent in
 * web mode). Electron no longer gives a dropped File a `.path`; the preload asks Electron for it.
 */
export interface DesktopFiles {
  /** the dropped file's path on disk; '' when it has none (a file made in the page) */
  pathForFile(file: File): string;
}
