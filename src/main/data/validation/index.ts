/**
 * Validation (data-format.md §6c): the findings of one file, each naming its key, electrode and
 * first offending index; the rules both loaders apply to what they read (spike times and marks,
 * time units, the animal's path, the assembled dataset); the scans the rules are phrased in; and
 * the reader that turns an .npz member it cannot read into a finding instead of a failed load.
 *
 * Imports src/shared and npz/ only: the loaders (clusterlessNpz/, nwb/) call the rules, never the
 * other way round.
 */
export { ArrayReader, listKeys, type NumericArray } from './arrayReader';
export { checkDataset } from './datasetChecks';
export { finiteRange, scanNonFinite, scanOrder } from './scan';
export { checkTimeUnits } from './timeChecks';
export { checkGaps, checkJumps } from './trajectoryChecks';
export { checkSpikes, MAX_FEATURES, type CheckedSpikes, type SpikeInput } from './validateSpikes';
export { count, num, pct, shapeText, ValidationFindings } from './validationFindings';
