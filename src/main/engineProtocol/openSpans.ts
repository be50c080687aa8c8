/**
 * Spans a live run has begun and not yet ended, on their way from the engine to the service. The
 * trace holds complete spans only (each is written when it ends), so a live timeline would show
 * nothing of "run" or "strategy compensated" until they finish; the engine's recorder answers what
 * it has open, the engine reports that list as it changes, the host keeps the latest list with the
 * run. Nothing here is written to the trace: the exported file stays complete spans.
 */
import type { OpenSpan } from '../../shared/events';

export type { OpenSpan };

/** The service's span around the engine process's life ("engine process" on its lane). */
export const ENGINE_PROCESS_SPAN = 'engine process';

/** A message's open-span list, checked: the engine is trusted code, but a malformed entry must not reach the timeline. */
export function isOpenSpanList(v: unknown): v is OpenSpan[] {
  return Array.isArray(v) && v.every((s) => {
    const o = s as Partial<OpenSpan> | null;
    return typeof o === 'object' && o !== null && (o.proc === 'engine' || o.proc === 'service' || o.proc === 'external') && typeof o.tid === 'number'
      && typeof o.name === 'string' && typeof o.startUs === 'number' && Number.isFinite(o.startUs)
      && (o.args === undefined || (typeof o.args === 'object' && o.args !== null));
  });
}
