/**
 * Data in and out, as the rest of the app sees it: a DataSource loaded or inspected, the
 * clusterless-npz/1 loader with its validation catalogue, NWB/HDF5 import, the synthetic presets,
 * the place grid, the .npy/.npz writers, a dataset's fingerprint and shards, and a sweep's data
 * files. Runs in the service and the engine process (node:fs, worker_threads).
 *
 * This file is the folder's only door: every other folder imports data/ here, never a room. The
 * rooms, each with an index.ts saying what it is for and what it must not import: sources/ (a
 * DataSource to a Dataset), clusterlessNpz/ (the clusterless-npz/1 loader), nwb/ (NWB import),
 * validation/ (the findings and the rules both loaders share), npz/ (reading .npy, zip and .npz),
 * files/ (opening files a person names or anyone may replace), writers/ (.npy, zip and
 * clusterless-npz/1 out), grid/ (the place grid), presets/ (synthetic presets and simulated
 * recordings), dataset/ (what is computed from a loaded Dataset), sweeps/ (a sweep's data files).
 *
 * Holds no code of its own. Must not import electron, the engine, tfjs or the renderer.
 */
export { inspectData, isNwbSource, loadDataset, nwbRequest, type LoadOptions } from './sources';
export { inspectNpz, inspectNpzBytes, loadNpz, loadNpzBytes, type LoadProgress, type NpzInspection, type NpzLoadOptions } from './clusterlessNpz';
export * from './nwb';
export { MAX_FEATURES } from './validation';
export { npyAsFloat64, openNpz, openNpzBytes, parseNpy, parseNpyHeader, type NpyArray, type NpyDtype, type NpzFile } from './npz';
export {
  entryAt, existsError, gunzipBounded, gzipDeclaredSize, MAX_TRACE_GZ_BYTES, MAX_TRACE_JSON_BYTES, notAFileError, openUntrustedFile,
  readTraceJson, readUntrustedFile, readUntrustedText, regularFileStats, type UntrustedReadOptions,
} from './files';
export {
  commitResultFolder, holdsResult, pendingCommit, processAlive, readResultManifest, recoverResultFolder, RESULT_MANIFEST, stageFile, TEMPORARY_NAME,
  temporaryBeside, writeFailureReason, writeFileAtomic, type ResultDescription, type ResultManifest, type ResultNames,
} from './files';
export {
  encodeNpyBytes, encodeNpyFloat32, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, npyHeader, NPZ_FORMAT,
  writeClusterlessNpz, ZipWriter, type NpzWriteOptions,
} from './writers';
export { buildPlaceGrid1d, buildPlaceGrid2d, histogramCounts, linspace, regularGridShape, type PlaceGrid1d, type PlaceGrid2d } from './grid';
export {
  lapTrajectory, makePreset, PLACE_POSITION_STD_CM, PLACE_WAVEFORM_STD, presetInfo, PRESET_INFO, replayTrajectory, Rng, spikeCountsPerElectrode,
  tetrodeSpikes, TRACK_CM, type PresetOptions,
} from './presets';
export { datasetFingerprint, previewDataset, SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT, shardOf } from './dataset';
export { nestedSubset, writeSweepFiles, type GuardWrite, type SweepDataFile, type SweepFilesRequest } from './sweeps';
