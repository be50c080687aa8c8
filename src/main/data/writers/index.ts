/**
 * Writing arrays out: .npy bytes numpy.load reads without options (the CLI's float32
 * likelihoods, the engine's row files), a zip writer of stored members renamed into place only
 * when whole, and a Dataset exported as clusterless-npz/1 (the keys the loader reads back).
 *
 * Imports node, src/shared, files/ and npz/ (the zip checksum) only: never a loader, so a loader
 * can be tested against what the writer wrote.
 */
export { NPZ_FORMAT, writeClusterlessNpz, type NpzWriteOptions } from './exportNpz';
export { encodeNpyBytes, encodeNpyFloat32, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, npyHeader } from './npyEncode';
export { ZipWriter } from './zipWriter';
