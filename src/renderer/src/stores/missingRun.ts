/**
 * A run that a link, a reload or the browser history names may be gone: deleted, or in another
 * runs folder. The service's NOT_FOUND for that run, or the BAD_ARGUMENT of an id that cannot be
 * one, reads the same to a person, so the views say it in one sentence instead of the service's.
 */
import { isRunId } from '../../../shared/runIds';
import { errorText, type ErrorText } from '../lib/errorText';

export function missingRunText(id: string): string {
  return `run ${id} was not found: it may have been deleted. Pick another run from Runs.`;
}

interface ThrownError {
  code?: unknown;
  message?: unknown;
  location?: { key?: unknown };
}

/**
 * Which of the asked runs an error says is missing, or null when it says something else (a run
 * without a report, a broken connection). `ids` in the order the call took them.
 */
export function missingRunOf(e: unknown, ids: readonly string[]): string | null {
  if (typeof e !== 'object' || e === null) return null;
  const r = e as ThrownError;
  // the service checks an id's shape before it looks for the run
  if (r.code === 'BAD_ARGUMENT') return ids.find((id) => !isRunId(id)) ?? null;
  const key = r.location?.key;
  if (r.code === 'NOT_FOUND' && typeof r.message === 'string' && /\bnot found\b/.test(r.message)) return ids.find((id) => id === key) ?? null;
  return null;
}

/** the error to show for a run that could not be read: the one sentence when it is missing */
export function runErrorText(e: unknown, id: string): ErrorText {
  return missingRunOf(e, [id]) === null ? errorText(e) : { code: 'NOT_FOUND', message: missingRunText(id) };
}
