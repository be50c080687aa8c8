/**
 * The checks a run request passes before it is queued: a data file given by an absolute path and
 * a regular file (never a pipe the engine would wait on), engines that run commands refused
 * unless the caller is the command line, and what a decode run's config and request must be.
 *
 * Builds on the argument checks (validate.ts) and data/. Must not import the queue, the store nor
 * the facade: the facade checks a request here, then queues it.
 */
export { decodeConfig, decodeRequestOf, withReadableData } from './runRequests';
