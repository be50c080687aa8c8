/**
 * The arrays the engine process writes into a run's folder and reads back: a likelihood and its
 * axes, whole or streamed block by block into a `.partial` file, and float32 .npy files read and
 * written a window of rows at a time, at any row (the posterior's); and what a run's files will
 * take, checked against its disk before the work. Where each file goes is engineProtocol/runFolder.ts'.
 *
 * Part of the engine process: imports node, data/, engineProtocol/ and src/shared, and none of its
 * other rooms.
 */
export { npyBytes, refuseBeyondDisk, type OutputSize } from './diskSpace';
export { writeAxes, writeLikelihood } from './likelihoodFiles';
export { LikelihoodStream } from './likelihoodStream';
export { RowFileReader, RowFileWriter } from './rowFiles';
