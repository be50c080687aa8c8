/**
 * Fans run events out to subscribers of one run or of all runs ('*'). A listener that throws is
 * cut off from that event only; the others still get it.
 */
import type { RunEvent } from '../../shared/events';

type Listener = (event: RunEvent) => void;

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  subscribe(target: string, listener: Listener): () => void {
    let set = this.listeners.get(target);
    if (!set) this.listeners.set(target, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(target) === set) this.listeners.delete(target);
    };
  }

  /** whether anyone listens: work done only for listeners (following other processes' runs) can rest */
  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  emit(event: RunEvent): void {
    for (const target of [event.runId, '*']) {
      const set = this.listeners.get(target);
      if (!set) continue;
      for (const l of [...set]) {
        try {
          l(event);
        } catch {
          // a subscriber's failure is its own; the run and the other subscribers go on
        }
      }
    }
  }
}
