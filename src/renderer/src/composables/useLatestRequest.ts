/**
 * "The latest request wins" for a store that asks the service again before an earlier answer came:
 * an answer or a failure reaches the store only while its request is still the latest one. A slow
 * older answer would otherwise overwrite what a newer choice already shows.
 */

export interface RequestHandlers<T> {
  /** the answer, while its request is the latest; it may await more, and its failure counts as the request's */
  onAnswer?: (answer: T) => void | Promise<void>;
  /** the failure, while its request is the latest; without it the latest request's failure is thrown */
  onError?: (error: unknown) => void;
  /** after the answer or the failure, while the request is still the latest (a loading flag goes off here) */
  onSettled?: () => void;
}

export interface RequestTicket {
  /** no later request started and nothing invalidated this one */
  isLatest(): boolean;
  /** asks and hands the outcome to the handlers that are still due; stale outcomes are dropped */
  settle<T>(ask: () => Promise<T>, handlers: RequestHandlers<T>): Promise<void>;
}

export interface LatestRequest {
  /** takes a ticket: every request started earlier is stale from now on */
  next(): RequestTicket;
  /** next() and settle() in one, for a request that has nothing to do between the two */
  run<T>(ask: () => Promise<T>, handlers: RequestHandlers<T>): Promise<void>;
  /** makes every request in flight stale, as a clear or a reset must */
  invalidate(): void;
}

export function useLatestRequest(): LatestRequest {
  let latest = 0;

  function next(): RequestTicket {
    const mine = ++latest;
    const isLatest = (): boolean => mine === latest;
    async function settle<T>(ask: () => Promise<T>, handlers: RequestHandlers<T>): Promise<void> {
      try {
        const answer = await ask();
        if (isLatest()) await handlers.onAnswer?.(answer);
      } catch (e) {
        if (!isLatest()) return;
        if (!handlers.onError) throw e;
        handlers.onError(e);
      } finally {
        if (isLatest()) handlers.onSettled?.();
      }
    }
    return { isLatest, settle };
  }

  return {
    next,
    run: (ask, handlers) => next().settle(ask, handlers),
    invalidate: () => void ++latest,
  };
}
