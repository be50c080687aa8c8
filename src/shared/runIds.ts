/**
 * The run-id rule: sortable by creation time, safe as folder names, and checked strictly wherever
 * one arrives from outside (IPC, WebSocket, CLI), so an id can never name a path outside the runs
 * folder. Minting new ids is the service's (service/store/runIds.ts).
 */
import { AppError } from './errors';

/** e.g. 20250101-120000-a1b2c3 (UTC) */
export const RUN_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;
/** what a transport accepts where a run id goes, before the service checks it strictly */
export const MAX_RUN_ID_CHARS = 100;
/** the subscription key for the events of every run */
export const ALL_RUNS = '*';

export function isRunId(v: unknown): v is string {
  return typeof v === 'string' && RUN_ID_PATTERN.test(v);
}

/** v when it follows the run-id rule, else BAD_ARGUMENT naming the key and the kind of id expected (run, sweep). */
export function assertIdOfRunRule(v: unknown, key: string, kind: string): string {
  if (!isRunId(v)) {
    const shown = typeof v === 'string' ? JSON.stringify(v.slice(0, 60)) : typeof v;
    throw new AppError('BAD_ARGUMENT', `${key}: expected a ${kind} id like 20250101-120000-a1b2c3, got ${shown}`, { key });
  }
  return v;
}

export function assertRunId(v: unknown, key = 'runId'): string {
  return assertIdOfRunRule(v, key, 'run');
}

/**
 * A subscription key as a transport carries it: a run id or ALL_RUNS, checked for shape only
 * (a non-empty string of bounded length); the service checks the id itself with assertRunId.
 */
export function checkSubscriptionKey(v: unknown): string {
  if (typeof v === 'string' && v.length > 0 && v.length <= MAX_RUN_ID_CHARS) return v;
  throw new AppError('BAD_ARGUMENT', `subscribe: expected a run id or '*', got ${JSON.stringify(v)?.slice(0, 120)}`, { key: 'runId' });
}

/**
 * Runs one page may follow at once (the run list's '*' counts as one). A page follows the run it
 * shows and perhaps a comparison's two; without a cap a page could register listeners until the
 * service ran out of memory.
 */
export const MAX_SUBSCRIPTIONS_PER_PAGE = 64;

/** Refuses a page's subscription past MAX_SUBSCRIPTIONS_PER_PAGE. */
export function checkSubscriptionRoom(held: number): void {
  if (held < MAX_SUBSCRIPTIONS_PER_PAGE) return;
  throw new AppError(
    'BAD_ARGUMENT', `subscribe: this page already follows ${held} runs, the most one page may; unsubscribe from one it no longer shows first`, { key: 'runId' },
  );
}
