/**
 * Checks the web-mode e2e suite makes on what the page shows and hands out: the pixels of a chart's
 * canvas (painted or blank, changed or not) and the structure of an exported Chrome trace.
 */
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

export interface CanvasStats {
  canvases: number;
  widthPx: number;
  heightPx: number;
  /** distinct colours among sampled pixels, quantized to 5 bits a channel */
  distinctColors: number;
  /** sampled pixels that differ from the top-left pixel, on the most painted canvas (ECharts may add nearly empty layers) */
  paintedFraction: number;
  /** a cheap fingerprint of the sampled pixels, to tell whether the chart was redrawn differently */
  signature: string;
}

/** Reads the canvases under the element with this data-testid (ECharts draws on one or more); null: the whole page. */
export async function canvasStats(page: Page, testid: string | null): Promise<CanvasStats> {
  return page.evaluate((id) => {
    const root = id === null ? document : document.querySelector(`[data-testid="${id}"]`);
    const canvases = root ? Array.from(root.querySelectorAll('canvas')) : [];
    const colors = new Set<number>();
    let paintedFraction = 0;
    let hash = 2166136261;
    let widthPx = 0;
    let heightPx = 0;
    for (const c of canvases) {
      widthPx = Math.max(widthPx, c.width);
      heightPx = Math.max(heightPx, c.height);
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) continue;
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      const bg = [px[0], px[1], px[2], px[3]];
      let painted = 0;
      let sampled = 0;
      // every 3rd pixel of every 3rd row is plenty for a yes/no and a fingerprint
      for (let y = 0; y < c.height; y += 3) {
        for (let x = 0; x < c.width; x += 3) {
          const i = (y * c.width + x) * 4;
          const r = px[i]!, g = px[i + 1]!, b = px[i + 2]!, a = px[i + 3]!;
          sampled++;
          if (r !== bg[0] || g !== bg[1] || b !== bg[2] || a !== bg[3]) painted++;
          colors.add(((r >> 3) << 15) | ((g >> 3) << 10) | ((b >> 3) << 5) | (a >> 3));
          hash = Math.imul(hash ^ (r | (g << 8) | (b << 16) | (a << 24)), 16777619);
        }
      }
      if (sampled) paintedFraction = Math.max(paintedFraction, painted / sampled);
    }
    return {
      canvases: canvases.length,
      widthPx,
      heightPx,
      distinctColors: colors.size,
      paintedFraction,
      signature: `${canvases.length}:${widthPx}x${heightPx}:${(hash >>> 0).toString(16)}`,
    };
  }, testid);
}

/**
 * Waits until no canvas on the page changes for a while: ECharts animates bars and lines in over
 * about a second, and a screenshot taken before that shows half-grown bars.
 */
export async function settleCharts(page: Page, timeoutMs = 4_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  let last = (await canvasStats(page, null)).signature;
  let stableSince = Date.now();
  while (Date.now() < until) {
    await page.waitForTimeout(150);
    const now = (await canvasStats(page, null)).signature;
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= 450) {
      return true;
    }
  }
  return false;
}

interface TraceEvent {
  ph?: unknown;
  name?: unknown;
  pid?: unknown;
  tid?: unknown;
  ts?: unknown;
  dur?: unknown;
}

export interface TraceSummary {
  events: number;
  metadata: number;
  spans: number;
  counters: number;
  /** structural rules the trace breaks (the export profile of the trace-format spec, §6) */
  problems: string[];
}

const isPositiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Gunzips and parses an exported `.json.gz` trace and checks its structure. */
export function checkGzipTrace(bytes: Uint8Array): TraceSummary {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { events: 0, metadata: 0, spans: 0, counters: 0, problems: ['not gzip (no 1f 8b magic)'] };
  const doc = JSON.parse(gunzipSync(bytes).toString('utf8')) as { traceEvents?: unknown; otherData?: unknown };
  return checkTrace(doc);
}

export function checkTrace(doc: { traceEvents?: unknown; otherData?: unknown }): TraceSummary {
  const problems: string[] = [];
  if (!Array.isArray(doc.traceEvents)) return { events: 0, metadata: 0, spans: 0, counters: 0, problems: ['traceEvents is not an array'] };
  if (typeof doc.otherData !== 'object' || doc.otherData === null) problems.push('otherData is missing');
  const events = doc.traceEvents as TraceEvent[];
  let metadata = 0;
  let spans = 0;
  let counters = 0;
  let seenNonMeta = false;
  const note = (i: number, what: string): void => {
    if (problems.length < 20) problems.push(`event ${i} (${String(events[i]?.ph)} ${String(events[i]?.name)}): ${what}`);
  };
  events.forEach((e, i) => {
    if (e.ph === 'M') {
      metadata++;
      if (seenNonMeta) note(i, 'M event after a non-M event');
    } else {
      seenNonMeta = true;
    }
    if (!isPositiveInt(e.pid)) note(i, `pid ${JSON.stringify(e.pid)} is not a positive integer`);
    if (e.tid !== undefined && !isPositiveInt(e.tid)) note(i, `tid ${JSON.stringify(e.tid)} is not a positive integer`);
    if (e.ph === 'X') {
      spans++;
      if (!isFiniteNumber(e.ts) || e.ts < 0) note(i, `ts ${JSON.stringify(e.ts)} is not a number ≥ 0`);
      if (!isFiniteNumber(e.dur) || e.dur < 0) note(i, `dur ${JSON.stringify(e.dur)} is not a number ≥ 0`);
      if (typeof e.name !== 'string' || !e.name) note(i, 'X event without a name');
    }
    if (e.ph === 'C') counters++;
  });
  if (metadata === 0) problems.push('no M (metadata) events');
  if (spans === 0) problems.push('no X (complete) events');
  return { events: events.length, metadata, spans, counters, problems };
}

export interface TokenTraces {
  /** the address bar */
  address: string;
  /** what scripts on this origin see */
  documentCookie: string;
  /** every cookie the browser holds, HttpOnly ones included: any would ride to every port of the host */
  browserCookies: string[];
  /** where the page keeps its token for reloads and new tabs: the origin's localStorage, under a key with the port */
  storedToken: string | null;
}

/** Where the page's token can be found after load: only localStorage should have it. */
export async function tokenTraces(page: Page): Promise<TokenTraces> {
  const port = new URL(page.url()).port;
  const inPage = await page.evaluate((key) => ({ documentCookie: document.cookie, storedToken: localStorage.getItem(key) }), `kde-profiler-token:${port}`);
  const cookies = await page.context().cookies();
  return { address: page.url(), ...inPage, browserCookies: cookies.map((c) => `${c.name} (${c.domain}${c.path})`) };
}

/** The page reached the server over its WebSocket: the sidebar shows the server's version and no error banner is up. */
export async function connectedToServer(page: Page): Promise<boolean> {
  const version = await page.getByText(/^v\d+\.\d+\.\d+\S* · tfjs /).count();
  const errors = await page.locator('[data-testid="service-error"], [data-testid="connection-banner"]').count();
  return version === 1 && errors === 0;
}
