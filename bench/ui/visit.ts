/**
 * One measured visit of a timeline page in a fresh browser context: first paint (navigation start
 * → the contract's first finished paint with spans), then zoom and pan, each for a few seconds
 * with one real input event (through the DevTools protocol, so the page sees trusted events)
 * sent after every animation frame, while the page counts its frames. An implementation that
 * falls behind shows fewer frames and longer ones; the inputs it has not handled yet wait.
 */
import type { Browser, Page } from 'playwright-core';
import { KEEP_NAMES_SHIM, nextFrame, readContract, startFrameMeter, stopFrameMeter, TIMELINE_SELECTOR, watchFirstPaint } from './pageProbes';

/** How a timeline is driven: which wheel zooms (and by how much per step), which gesture pans. */
export interface Gestures {
  /** held during the zoom wheel: the app's track view zooms on Ctrl+wheel (a plain wheel scrolls its tracks) */
  zoomKey?: 'Control';
  /** wheel deltaY of one step in and one step out; each implementation's factor per step differs */
  zoomInDeltaY: number;
  zoomOutDeltaY: number;
  /** drag: press and move; wheel: horizontal wheel (deltaX) */
  pan: 'drag' | 'wheel';
}

/** each about ×1.4 per zoom step, so the three cover similar ranges */
export const GESTURES = {
  /** the app's canvas track view: Ctrl+wheel zooms (e^(Δ/300)), a horizontal wheel pans, a drag selects an area */
  app: { zoomKey: 'Control', zoomInDeltaY: -100, zoomOutDeltaY: 100, pan: 'wheel' },
  /** the ECharts timeline: its inside dataZoom zooms ×1.4 per wheel step and pans on drag */
  echarts: { zoomInDeltaY: -100, zoomOutDeltaY: 100, pan: 'drag' },
  /** flame-chart-js: a wheel step zooms by deltaY/1000, a drag pans */
  'flame-chart-js': { zoomInDeltaY: -400, zoomOutDeltaY: 286, pan: 'drag' },
} as const satisfies Record<string, Gestures>;

export type GestureProfile = keyof typeof GESTURES;

export interface FrameStats {
  fps: number;
  longestFrameMs: number;
  frames: number;
  inputs: number;
  /** paints the timeline finished meanwhile: none means the gesture moved nothing */
  paints: number;
  durationMs: number;
}

export interface VisitResult {
  firstPaintMs: number;
  /** the page's load event ended: its scripts were fetched and run (ms since navigation start) */
  pageLoadedMs: number | null;
  /** flame-chart-js page only: data fetched and parsed, ms since navigation start */
  dataLoadedMs: number | null;
  spans: number;
  totalEvents: number;
  zoom: FrameStats;
  pan: FrameStats;
  /** console errors and page errors seen during the visit */
  problems: string[];
}

export interface VisitOptions {
  interactMs: number;
  firstPaintTimeoutMs: number;
  /** a PNG of the page after the pan, to see what was measured */
  screenshotPath?: string;
}

export const VIEWPORT = { width: 1400, height: 1000 };
/** zoom steps in one direction before turning back, so no implementation hits its zoom limit */
const ZOOM_SWING = 8;
/** zoom steps in before panning */
const PAN_ZOOM_STEPS = 6;
const PAN_STEP_PX = 8;
const PAN_SWING = 45;
const SETTLE_QUIET_MS = 600;
const SETTLE_LIMIT_MS = 30_000;

function frameStats(times: number[], inputs: number, paints: number): FrameStats {
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  const durationMs = times.length > 1 ? times[times.length - 1]! - times[0]! : 0;
  return { fps: durationMs > 0 ? ((times.length - 1) * 1000) / durationMs : 0, longestFrameMs: longest, frames: times.length, inputs, paints, durationMs };
}

/** Waits until no paint has finished for a while (the answers to the last inputs have landed). */
async function settle(page: Page): Promise<void> {
  const started = Date.now();
  let last = -1;
  let quietSince = Date.now();
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    const { paintCount } = await readContract(page);
    if (paintCount !== last) {
      last = paintCount;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= SETTLE_QUIET_MS) {
      return;
    }
    await page.waitForTimeout(100);
  }
}

/** a point over the drawn spans: the timeline's canvas, right of any label column, in the visible part */
async function pointerSpot(page: Page): Promise<{ x: number; y: number }> {
  const canvas = page.locator(`${TIMELINE_SELECTOR} canvas`).first();
  const target = (await canvas.count()) > 0 ? canvas : page.locator(TIMELINE_SELECTOR);
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`${TIMELINE_SELECTOR}: the timeline has no box to point at (is it hidden?)`);
  const top = Math.max(box.y, 0);
  const bottom = Math.min(box.y + box.height, VIEWPORT.height);
  return { x: Math.round(box.x + box.width * 0.6), y: Math.round((top + Math.min(bottom, top + 400)) / 2) };
}

/** Sends `step(i)` after each animation frame for `durationMs` while the page counts frames. */
async function everyFrame(page: Page, durationMs: number, step: (i: number) => Promise<void>): Promise<FrameStats> {
  const paintsBefore = (await readContract(page)).paintCount;
  await startFrameMeter(page);
  const started = Date.now();
  let inputs = 0;
  // the input goes out as the frame starts, unawaited: the protocol acknowledges a wheel only a
  // frame or two later, and waiting for that would send one input every other frame
  const sent: Promise<void>[] = [];
  let failure: Error | undefined;
  while (Date.now() - started < durationMs && failure === undefined) {
    await nextFrame(page);
    sent.push(step(inputs++).catch((e: unknown) => void (failure ??= e instanceof Error ? e : new Error(String(e)))));
  }
  await Promise.all(sent);
  if (failure !== undefined) throw failure;
  const times = await stopFrameMeter(page);
  return frameStats(times, inputs, (await readContract(page)).paintCount - paintsBefore);
}

async function zoomSteps(page: Page, g: Gestures, directions: boolean[]): Promise<void> {
  for (const zoomIn of directions) {
    await nextFrame(page);
    await page.mouse.wheel(0, zoomIn ? g.zoomInDeltaY : g.zoomOutDeltaY);
  }
}

async function withKey<T>(page: Page, key: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (key) await page.keyboard.down(key);
  try {
    return await fn();
  } finally {
    if (key) await page.keyboard.up(key);
  }
}

/** in for ZOOM_SWING steps, out for as many, and again; returns the stats and the net steps in */
async function zoomPhase(page: Page, g: Gestures, durationMs: number): Promise<{ stats: FrameStats; netIn: number }> {
  let netIn = 0;
  const stats = await withKey(page, g.zoomKey, () =>
    everyFrame(page, durationMs, async (i) => {
      const zoomIn = Math.floor(i / ZOOM_SWING) % 2 === 0;
      netIn += zoomIn ? 1 : -1;
      await page.mouse.wheel(0, zoomIn ? g.zoomInDeltaY : g.zoomOutDeltaY);
    }),
  );
  return { stats, netIn };
}

async function panPhase(page: Page, g: Gestures, at: { x: number; y: number }, durationMs: number): Promise<FrameStats> {
  const direction = (i: number) => (Math.floor(i / PAN_SWING) % 2 === 0 ? 1 : -1);
  if (g.pan === 'wheel') return everyFrame(page, durationMs, (i) => page.mouse.wheel(direction(i) * PAN_STEP_PX, 0));
  let x = at.x;
  await page.mouse.down();
  try {
    return await everyFrame(page, durationMs, async (i) => {
      x += direction(i) * PAN_STEP_PX;
      await page.mouse.move(x, at.y);
    });
  } finally {
    await page.mouse.up();
  }
}

/**
 * `open`, when given, runs right after navigation: for a build whose address cannot name the run
 * yet, it clicks its way there; first paint still counts from navigation start.
 */
export async function measureVisit(browser: Browser, url: string, g: Gestures, options: VisitOptions, open?: (page: Page) => Promise<void>): Promise<VisitResult> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.addInitScript({ content: KEEP_NAMES_SHIM });
    await page.addInitScript(watchFirstPaint);
    await page.goto(url, { waitUntil: 'commit' });
    await open?.(page);
    await page
      .waitForFunction(() => (window as Window & { uiBench?: { firstPaintMs: number | null } }).uiBench?.firstPaintMs != null, undefined, {
        timeout: options.firstPaintTimeoutMs,
        polling: 50,
      })
      .catch(async (e: unknown) => {
        const now = await readContract(page).catch(() => null);
        throw new Error(`no first paint with spans within ${options.firstPaintTimeoutMs} ms at ${url} (timeline: ${JSON.stringify(now)}; ${problems.join('; ')}): ${String(e)}`);
      });
    await settle(page);
    const first = await readContract(page);
    const at = await pointerSpot(page);
    await page.mouse.move(at.x, at.y);
    await settle(page);

    const zoom = await zoomPhase(page, g, options.interactMs);
    // back to the whole run, then a fixed zoom in, so every implementation pans the same kind of view
    await withKey(page, g.zoomKey, async () => {
      await zoomSteps(page, g, Array<boolean>(Math.max(0, zoom.netIn) + 2).fill(false));
      await zoomSteps(page, g, Array<boolean>(PAN_ZOOM_STEPS).fill(true));
    });
    await settle(page);
    const pan = await panPhase(page, g, at, options.interactMs);
    if (options.screenshotPath) await page.screenshot({ path: options.screenshotPath });
    return {
      firstPaintMs: first.firstPaintMs!,
      pageLoadedMs: first.pageLoadedMs,
      dataLoadedMs: first.dataLoadedMs,
      spans: first.spans,
      totalEvents: first.totalEvents,
      zoom: zoom.stats,
      pan,
      problems,
    };
  } finally {
    await context.close();
  }
}
