/**
 * The clusterless-npz/1 loader (data-format.md): finds the electrodes in any of the three layouts,
 * the position and the decoding grid, the place grid, the kernel widths and the training mask,
 * applies validation/'s rules as it reads, and returns a Dataset with its findings. NWB import
 * checks positions and builds a grid by the same rules (checkTrajectory, buildGrid).
 *
 * Imports node, src/shared, engine/model (the spec's defaults), npz/, validation/ and grid/ only:
 * never nwb/, the presets or the writers.
 */
export { buildGrid, type GridResult } from './loadGrid';
export { inspectNpz, inspectNpzBytes, loadNpz, loadNpzBytes, type LoadProgress, type NpzInspection, type NpzLoadOptions } from './loadNpz';
export { checkPositionValues, checkSampleTimes, checkTimeGrid, checkTrajectory, type PositionSeries } from './loadPosition';
