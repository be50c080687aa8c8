/**
 * What is computed from a loaded Dataset without reading a file: its fingerprint (what the
 * likelihood is computed from, so shards and the run they stand for share one), its split into
 * shards (`--shard I/N`), and the light preview the data view plots.
 *
 * Functions of a Dataset alone: imports node (the hash) and src/shared only.
 */
export { datasetFingerprint } from './fingerprint';
export { previewDataset } from './preview';
export { SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT, shardOf } from './shard';
