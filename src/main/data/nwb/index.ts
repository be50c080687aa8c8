/**
 * NWB/HDF5 import: the lazy scan that lists candidates, the recipe (the mapping, saved as JSON next to
 * the file), the loader that turns files + recipe into a Dataset, and the worker that inspects off the
 * event loop. Uses h5wasm and node:fs; must not import electron, the engine, tfjs or the renderer.
 */
export { autoRecipe } from './autoRecipe';
export { inspectNwbInWorker, scanNwbInWorker, type NwbWorkerResult } from './inspectInWorker';
export { inspectNwb, loadNwb, type NwbInspection } from './loadNwb';
export {
  loadRecipe, parseRecipe, recipePathFor, saveRecipe, RECIPE_FORMAT, RECIPE_SUFFIX,
  type BinChoice, type ElectrodeChoice, type GridChoice, type NwbRecipe, type PositionChoice, type SpikeSource,
} from './recipe';
export { scanNwb, scanNwbFile } from './scan';
export { scanForMapping, type NwbMappingScan } from './scanView';
export type {
  FeatureColumn, FeatureExtractionCandidate, IntervalTable, NwbScan, PositionCandidate, SpikeEventSeriesCandidate,
  SpikeTableCandidate, TimeSource,
} from './scanTypes';
export { readUnits, type UnitSpikes } from './units';
