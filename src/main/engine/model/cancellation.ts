/**
 * Cancellation, owned by the run: the run loop holds an AbortController and hands its signal to
 * the engine through the call options; whoever sees the signal aborted throws the one error that
 * means "cancelled". It lives in the tfjs-free model so the engine and the engine process's run
 * loop share it without the loop loading TensorFlow.js.
 */
import { AppError } from '../../../shared/errors';

/** The run was cancelled: a request, not a failure; never reported as an error. */
export class CancelledError extends AppError {
  constructor(message = 'the run was cancelled') {
    super('CANCELLED', message);
  }
}

/** Throws CancelledError once the signal is aborted; long loops call it between blocks. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** True for the cancellation error, also after it crossed a process boundary as code CANCELLED. */
export function isCancellation(e: unknown): boolean {
  if (e instanceof CancelledError) return true;
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'CANCELLED';
}
