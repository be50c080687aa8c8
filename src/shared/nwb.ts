/**
 * NWB/HDF5 import as it crosses the process boundary: what a lazy scan finds (the candidates the
 * mapping step chooses from), the recipe (the mapping itself, saved as JSON next to the data file),
 * and the answers of the mapping calls. Types and constants only: the checks live with the loader.
 */
import type { ValidationFinding } from './api';
import type { KdeParams } from './dataset';

export const RECIPE_FORMAT = 'kde-profiler-nwb-recipe/1';
export const RECIPE_SUFFIX = '.recipe.json';

/** where a series' sample times come from */
export type TimeSource =
  | { kind: 'timestamps'; path: string; n: number }
  | { kind: 'rate'; startingTime: number; rateHz: number; n: number };

export interface PositionCandidate {
  file: number;
  /** the SpatialSeries (or table) group */
  path: string;
  /** 1 = SpatialSeries in a Position container under /processing/behavior, 2 = elsewhere, 3 = a linear_position column */
  rank: 1 | 2 | 3;
  neurodataType: string;
  dataPath: string;
  /** (T,) or (T, D) */
  shape: number[];
  unit?: string;
  conversion: number;
  offset: number;
  referenceFrame?: string;
  description?: string;
  time: TimeSource;
  timeRange: [number, number] | null;
  medianRateHz: number | null;
  /** share of rows with any NaN, 0..100 */
  nanPct: number | null;
}

/** a per-spike column of a Units-like table */
export interface FeatureColumn {
  name: string;
  /** ragged: X (N, …) with X_index; spyglass: unindexed (1, N, C) */
  form: 'ragged' | 'spyglass';
  shape: number[];
  /** features per spike after flattening */
  nFeatures: number;
}

export interface SpikeTableCandidate {
  file: number;
  path: string;
  neurodataType: string;
  nUnits: number;
  nSpikes: number;
  spikesPerUnit: number[];
  /** per unit: its id, and its electrode group's name when the table has one */
  unitIds: number[];
  unitGroups: (string | null)[];
  timeRange: [number, number] | null;
  featureColumns: FeatureColumn[];
  /** waveforms + waveforms_index + waveforms_index_index present (peak amplitudes can be computed) */
  hasWaveforms: boolean;
}

export interface FeatureExtractionCandidate {
  file: number;
  path: string;
  nSpikes: number;
  nChannels: number;
  featuresPerChannel: number;
  featureNames: string[];
  timeRange: [number, number] | null;
}

export interface SpikeEventSeriesCandidate {
  file: number;
  path: string;
  nSpikes: number;
  nChannels: number;
  nSamples: number;
  conversion: number;
  unit?: string;
  time: TimeSource;
  timeRange: [number, number] | null;
}

export interface IntervalRow {
  start: number;
  stop: number;
}

export interface IntervalTable {
  file: number;
  path: string;
  rows: IntervalRow[];
}

export interface NwbScan {
  /** path as given */
  path: string;
  /** base name, for messages */
  file: string;
  nwbVersion?: string;
  identifier?: string;
  sessionStartTime?: string;
  timestampsReferenceTime?: string;
  position: PositionCandidate[];
  spikeTables: SpikeTableCandidate[];
  featureExtractions: FeatureExtractionCandidate[];
  spikeEventSeries: SpikeEventSeriesCandidate[];
  intervals: IntervalTable[];
  /** names of the file's ElectrodeGroup objects */
  electrodeGroups: string[];
  /** problems met while scanning (unreadable objects are skipped, not fatal) */
  problems: string[];
}

export interface PositionChoice {
  /** index into NwbRecipe.files */
  file: number;
  /** the SpatialSeries (or table) group */
  path: string;
  /** columns of a (T, D) series to keep, at most 2; default: all of a 1- or 2-column series */
  columns?: number[];
  /** multiply by the data's `conversion` and add its `offset` (default true) */
  applyConversion?: boolean;
  /** convert metres (and mm) to cm (default true) */
  toCm?: boolean;
  /** negate the second column (image coordinates grow downwards) */
  flipY?: boolean;
}

export type SpikeSource =
  | {
      kind: 'units';
      file: number;
      /** the Units-like table */
      path: string;
      /** rows merged into this electrode (one row for clusterless tables; several to group sorted units) */
      rows: number[];
      /** the per-spike column holding the marks */
      column: string;
      /** flattened feature columns to keep (default all) */
      features?: number[];
    }
  | { kind: 'featureExtraction'; file: number; path: string; features?: number[] }
  | {
      kind: 'spikeEventSeries';
      file: number;
      path: string;
      /** which extreme of each channel's waveform is the mark (default 'neg', as spyglass) */
      peakSign?: 'neg' | 'pos' | 'abs';
      /** sample index of the peak (default S // 2, as spyglass) */
      alignSample?: number;
      /** volts → µV after `conversion` (default true when the unit is volts) */
      toMicrovolts?: boolean;
      features?: number[];
    };

export interface ElectrodeChoice {
  name?: string;
  encoding: SpikeSource;
  /** separate decoding spikes; when absent the encoding spikes are decoded */
  decoding?: SpikeSource;
}

export type BinChoice =
  | { kind: 'position' }
  | { kind: 'uniform'; stepS: number; start?: number; stop?: number }
  | { kind: 'dataset'; file: number; path: string; edges?: boolean };

export type GridChoice =
  | { kind: 'build'; placeBinSize: number }
  | { kind: 'dataset'; file: number; centers: string; interior?: string };

export interface NwbRecipe {
  format: typeof RECIPE_FORMAT;
  /** the files of the import; relative paths are resolved against the recipe's folder */
  files: string[];
  position: PositionChoice;
  /** positions for the local likelihood, when they are a separate series */
  decodingPosition?: PositionChoice;
  electrodes: ElectrodeChoice[];
  bins: BinChoice;
  grid?: GridChoice;
  params?: Partial<KdeParams>;
  /** [start, stop) seconds the encoding model is fit on (is_training); absent = every sample */
  encodingIntervals?: [number, number][];
}

/** What scanData answers: the candidates of every file, and the mapping to start from. */
export interface NwbScanView {
  /** one scan per file, in recipe order; file paths are absolute */
  scans: NwbScan[];
  /** the saved recipe when one maps these files, else the automatic one, else null */
  recipe: NwbRecipe | null;
  /** where `recipe` came from: 'saved' (a recipe file), 'auto' (the only sensible choice), null (none) */
  recipeOrigin: 'saved' | 'auto' | null;
  /** the recipe file next to the first data file, when one exists */
  savedRecipePath: string | null;
  /** what is missing or ambiguous when there is no recipe, and what the scan had to skip */
  findings: ValidationFinding[];
}

export interface SavedRecipe {
  recipePath: string;
}

/** What exportDataAsNpz wrote. */
export interface NpzExport {
  outPath: string;
  bytes: number;
  nElectrodes: number;
  nEncodingSpikes: number;
}
