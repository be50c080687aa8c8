/**
 * The page-side bookkeeping of run-event subscriptions, shared by both transports: listeners per
 * run id (or '*'), one transport subscription per key however many listeners it has, and delivery
 * that one broken listener cannot stop.
 */
import { AppError } from './errors';
import { checkSubscriptionKey } from './runIds';
import type { RunEvent } from './events';

export type RunListener = (event: RunEvent) => void;

export class RunListeners {
  private readonly byKey = new Map<string, Set<RunListener>>();

  /** first/last: the transport subscribes when a key gets its first listener and unsubscribes after its last */
  constructor(
    private readonly first: (key: string) => void,
    private readonly last: (key: string) => void,
  ) {}

  add(runId: string, listener: RunListener): () => void {
    checkSubscriptionKey(runId);
    if (typeof listener !== 'function') throw new AppError('BAD_ARGUMENT', 'subscribe: expected a listener function', { key: 'listener' });
    let set = this.byKey.get(runId);
    if (!set) {
      set = new Set();
      this.byKey.set(runId, set);
      this.first(runId);
    }
    // a wrapper per call, so subscribing the same function twice needs two unsubscribes
    const entry: RunListener = (event) => listener(event);
    set.add(entry);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(entry);
      if (set.size === 0 && this.byKey.get(runId) === set) {
        this.byKey.delete(runId);
        this.last(runId);
      }
    };
  }

  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  deliver(key: string, event: RunEvent): void {
    for (const listener of [...(this.byKey.get(key) ?? [])]) {
      try {
        listener(event);
      } catch (e) {
        // one broken listener must not starve the others of events
        console.error('run event listener failed', e);
      }
    }
  }
}
