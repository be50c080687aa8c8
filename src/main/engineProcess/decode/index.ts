/**
 * A decode run, the production path for a long recording: fit once, decode the grid in windows of
 * rows streamed into the run folder, the posterior after it when asked, progress on one bar, and
 * what a decode of a window says of the whole recording's time and memory.
 *
 * Part of the engine process. Of its rooms it imports session/, measurement/, runFiles/ and
 * posterior/, never run/, which starts it.
 */
export { startDecodeRun } from './decodeRun';
