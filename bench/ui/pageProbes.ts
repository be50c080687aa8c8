/**
 * What the UI benchmark runs inside the page, through the timeline's DOM contract only: the root
 * `[data-testid="timeline"]` with data-paint-count (finished paints), data-spans and
 * data-total-events. Each function here is serialized into the page by Playwright, so it uses
 * nothing from this module's scope.
 */
import type { Page } from 'playwright-core';

export const TIMELINE_SELECTOR = '[data-testid="timeline"]';

/**
 * tsx compiles this module with esbuild's keepNames, which wraps every named function in a call to
 * a `__name` helper; the functions serialized into the page need that helper there too.
 */
export const KEEP_NAMES_SHIM = 'globalThis.__name ??= (fn) => fn;';

interface BenchState {
  /** ms since navigation start when the timeline first had a finished paint with spans */
  firstPaintMs: number | null;
  frames: { times: number[]; running: boolean } | null;
}

type BenchWindow = Window & { uiBench?: BenchState };

/**
 * Installed before any page script runs: a mutation observer notes the first moment the contract
 * says "painted, with spans", in the page's own clock (0 = navigation start), so polling latency
 * never counts.
 */
export function watchFirstPaint(): void {
  const state: BenchState = { firstPaintMs: null, frames: null };
  (window as BenchWindow).uiBench = state;
  const observer = new MutationObserver(() => {
    const el = document.querySelector('[data-testid="timeline"]');
    if (!el || state.firstPaintMs !== null) return;
    if (Number(el.getAttribute('data-paint-count')) >= 1 && Number(el.getAttribute('data-spans')) > 0) {
      state.firstPaintMs = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-paint-count', 'data-spans'] });
}

export interface ContractReading {
  firstPaintMs: number | null;
  paintCount: number;
  spans: number;
  totalEvents: number;
  /** the page's load event ended (scripts fetched and run), ms since navigation start; null before */
  pageLoadedMs: number | null;
  /** the flame-chart-js page's own mark: data fetched and parsed (ms since navigation start) */
  dataLoadedMs: number | null;
  error: string | null;
}

export function readContract(page: Page): Promise<ContractReading> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid="timeline"]');
    const num = (name: string) => Number(el?.getAttribute(name) ?? NaN);
    const loaded = el?.getAttribute('data-data-loaded-ms');
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      firstPaintMs: (window as BenchWindow).uiBench?.firstPaintMs ?? null,
      paintCount: num('data-paint-count'),
      spans: num('data-spans'),
      totalEvents: num('data-total-events'),
      pageLoadedMs: navigation && navigation.loadEventEnd > 0 ? navigation.loadEventEnd : null,
      dataLoadedMs: loaded ? Number(loaded) : null,
      error: el?.getAttribute('data-error') ?? null,
    };
  });
}

/** Starts counting requestAnimationFrame callbacks, with each frame's timestamp. */
export function startFrameMeter(page: Page): Promise<void> {
  return page.evaluate(() => {
    const state = (window as BenchWindow).uiBench!;
    const frames = { times: [] as number[], running: true };
    state.frames = frames;
    const tick = (t: number) => {
      frames.times.push(t);
      if (frames.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the meter and returns the frames' timestamps (ms). */
export function stopFrameMeter(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const frames = (window as BenchWindow).uiBench!.frames!;
    frames.running = false;
    return frames.times;
  });
}

/** Resolves at the page's next animation frame: input sent after it lands in the frame after. */
export function nextFrame(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}
