/**
 * Reading .npz files: the zip container (its directory checked before a member is read, deflated
 * members inflated with a cap), .npy members parsed in any dtype, order and format version, and
 * the archive opened lazily, one member at a time. Knows nothing of the clusterless-npz/1 layout.
 *
 * Imports node, src/shared and files/ only (every file is opened through files/).
 */
export { crc32 } from './crc32';
export { npyAsFloat64, parseNpy, parseNpyHeader, type NpyArray, type NpyDtype, type NpyHeader } from './npy';
export { openNpz, openNpzBytes, type NpzFile } from './npz';
