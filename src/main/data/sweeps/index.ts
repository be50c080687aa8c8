/**
 * A sweep's data files: one clusterless-npz/1 file per value, a preset regenerated at the value's
 * size or a file cut down to it (spikes subsampled nested, features, electrodes, or the place grid
 * rebuilt), so each value runs as an ordinary run on a file. The service wraps it with the runs
 * folder's write errors.
 *
 * Imports node, src/shared, sources/ (to load the swept source), presets/, grid/ and writers/ only.
 */
export { nestedSubset, writeSweepFiles, type GuardWrite, type SweepDataFile, type SweepFilesRequest } from './sweepData';
