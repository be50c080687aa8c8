/**
 * What a lazy scan of an NWB/HDF5 file finds: the candidates the mapping step chooses from. Only
 * shapes, dtypes, attributes and small index arrays are read to build these.
 */

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
