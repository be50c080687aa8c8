/**
 * What a lazy scan of an NWB/HDF5 file finds: the candidates the mapping step chooses from. Only
 * shapes, dtypes, attributes and small index arrays are read to build these. The types cross the
 * process boundary (the UI's mapping step shows them), so they are defined in shared/nwb.ts.
 */
export type {
  FeatureColumn, FeatureExtractionCandidate, IntervalRow, IntervalTable, NwbScan, PositionCandidate, SpikeEventSeriesCandidate,
  SpikeTableCandidate, TimeSource,
} from '../../../shared/nwb';
