/**
 * Debounce and throttle with an injectable clock-free design: both only use setTimeout, so tests
 * drive them with vitest's fake timers.
 */

export interface Debounced {
  (): void;
  cancel(): void;
  /** runs a pending call now */
  flush(): void;
}

export function debounce(fn: () => void, waitMs: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    timer = undefined;
    fn();
  };
  const d = (() => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, waitMs);
  }) as Debounced;
  d.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  d.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  return d;
}

export interface Throttled {
  (): void;
  cancel(): void;
}

/**
 * Runs `task` at most once per `intervalMs`, never two at a time: a request while one runs or
 * while the interval has not passed is remembered and served once, after. Calls after the first
 * wait out the interval, so a burst of events costs one call now and one at the end.
 */
export function throttleAsync(task: () => Promise<void>, intervalMs: number, now: () => number = Date.now): Throttled {
  let lastStart = -Infinity;
  let running = false;
  let pending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;

  const start = (): void => {
    timer = undefined;
    if (cancelled) return;
    if (running) {
      pending = true;
      return;
    }
    const wait = lastStart + intervalMs - now();
    if (wait > 0) {
      timer = setTimeout(start, wait);
      return;
    }
    pending = false;
    running = true;
    lastStart = now();
    task()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (pending && !cancelled && timer === undefined) start();
      });
  };

  const t = (() => {
    cancelled = false;
    if (running) {
      pending = true;
      return;
    }
    if (timer !== undefined) return;
    start();
  }) as Throttled;
  t.cancel = () => {
    cancelled = true;
    pending = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return t;
}
