/**
 * The timeline read as a person reads it, in Chromium: a finished run of many short passes over
 * four electrodes (zoomed out, each electrode's lane merges into long boxes of hundreds of spans,
 * which a folded group draws on one row), whose trace also carries the engine's routine notes and counters that never move
 * (an idle GPU's memory, a worker that held no tensors). The text drawn on the track canvas is
 * recorded with the browser's own measurements, so overprinted labels are caught as they would
 * be seen; the counter labels must read whole and the flat counters wait under "show all".
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRun, type SyntheticRun } from '../../bench/ui/syntheticRun';
import type { TraceRecord } from '../../src/shared/events';
import { ARTIFACTS_DIR, startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/timelineReadability.test.ts skipped: ${reason}`);

const TIMELINE = '[data-testid="timeline"]';

/** counters and notes a real run records, over the run's length */
function extraRecords(durationUs: number): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (let k = 0; k <= 100; k++) {
    const ts = (durationUs * k) / 100;
    // a GPU that stayed idle and a third worker that held no tensors: counters that never move
    out.push({ ph: 'C', proc: 'engine', name: 'gpu memory (MB)', ts, args: { used: 0 } });
    out.push({ ph: 'C', proc: 'engine', name: 'worker 2 tensors', ts, args: { MB: 0, count: 0 } });
    if (k % 10 === 5) {
      for (const tid of [1, 2]) out.push({ ph: 'I', proc: 'engine', tid, name: 'subnormal flush', cat: 'engine', ts, s: 't' });
    }
    // one warning, on a lane of its own moment, so the hover test has a red chevron to find
    if (k === 50) out.push({ ph: 'I', proc: 'engine', tid: 1, name: 'kernel compile failed', cat: 'engine', ts: ts + durationUs / 200, s: 't' });
  }
  return out;
}

interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
}

/** a chevron as the track canvas drew it: its tip's top centre and its size, in the canvas's CSS px */
interface DrawnChevron {
  x: number;
  y: number;
  halfWidth: number;
  height: number;
}

const drawnChevrons = (page: Page): Promise<DrawnChevron[]> => page.evaluate(() => (window as unknown as { chevrons: DrawnChevron[] }).chevrons);

/** the text of the track canvas's latest paint, with its measured boxes */
const lastPaintTexts = (page: Page): Promise<DrawnText[]> => page.evaluate(() => (window as unknown as { lastPaint: DrawnText[] }).lastPaint);

function overlaps(texts: readonly DrawnText[]): string[] {
  const problems: string[] = [];
  const byLine = new Map<number, DrawnText[]>();
  for (const t of texts) byLine.set(t.y, [...(byLine.get(t.y) ?? []), t]);
  for (const line of byLine.values()) {
    line.sort((a, b) => a.x - b.x);
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1]!, line[i]!];
      if (b.x < a.x + a.width - 0.5) problems.push(`"${a.text}" at ${a.x.toFixed(0)} and "${b.text}" at ${b.x.toFixed(0)}`);
    }
  }
  return problems;
}

describe.skipIf(reason !== null)(`timeline readability${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let runsDir: string;
  let run: SyntheticRun;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    runsDir = await mkdtemp(join(tmpdir(), 'kde-e2e-readable-'));
    run = await writeSyntheticRun({ runsDir, events: 60_000, electrodes: 4, workers: 1, passes: 300, chromeTrace: false });
    await appendFile(join(runsDir, run.runId, 'events.ndjson'), `${JSON.stringify(extraRecords(run.durationUs))}\n`);
    web = await startWebSession({ runsDir });
    await web.session.page.setViewportSize({ width: 1280, height: 800 });
    // the track canvas's text, as the browser measures it: a paint is one task, so what one task
    // drew is one paint
    await web.session.page.addInitScript(() => {
      const w = window as unknown as { lastPaint: DrawnText[]; current: DrawnText[] | null };
      w.lastPaint = [];
      w.current = null;
      const proto = CanvasRenderingContext2D.prototype;
      const original = Object.getOwnPropertyDescriptor(proto, 'fillText')!.value as (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) => void;
      proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
        if (this.canvas.closest('[data-testid="timeline"]')) {
          if (!w.current) {
            const paint: DrawnText[] = (w.current = []);
            queueMicrotask(() => ((w.lastPaint = paint), (w.current = null)));
          }
          w.current.push({ text, x, y, width: this.measureText(text).width });
        }
        original.call(this, text, x, y, maxWidth);
      };
      // the chevrons of the latest paint: a path of a moveTo and two lineTo's, the first two at one
      // height, filled; kept in the canvas's CSS px so the pointer can be put on one
      const c = window as unknown as { chevrons: DrawnChevron[]; path: DOMPoint[]; chevronPaint: DrawnChevron[] | null };
      c.chevrons = [];
      c.path = [];
      c.chevronPaint = null;
      const at = (ctx: CanvasRenderingContext2D, x: number, y: number): DOMPoint => {
        const p = ctx.getTransform().transformPoint(new DOMPoint(x, y));
        const k = ctx.canvas.getBoundingClientRect().width / ctx.canvas.width;
        return new DOMPoint(p.x * k, p.y * k);
      };
      type PathCall = (this: CanvasRenderingContext2D, x: number, y: number) => void;
      const moveTo = Object.getOwnPropertyDescriptor(proto, 'moveTo')!.value as PathCall;
      const lineTo = Object.getOwnPropertyDescriptor(proto, 'lineTo')!.value as PathCall;
      const fill = Object.getOwnPropertyDescriptor(proto, 'fill')!.value as (this: CanvasRenderingContext2D, ...a: unknown[]) => void;
      proto.moveTo = function (x: number, y: number) {
        c.path = [at(this, x, y)];
        moveTo.call(this, x, y);
      };
      proto.lineTo = function (x: number, y: number) {
        c.path.push(at(this, x, y));
        lineTo.call(this, x, y);
      };
      proto.fill = function (...a: unknown[]) {
        const [p0, p1, p2] = c.path;
        if (c.path.length === 3 && p0 && p1 && p2 && p0.y === p1.y && this.canvas.closest('[data-testid="timeline"]')) {
          if (!c.chevronPaint) {
            const paint: DrawnChevron[] = (c.chevronPaint = []);
            queueMicrotask(() => ((c.chevrons = paint), (c.chevronPaint = null)));
          }
          c.chevronPaint.push({ x: p2.x, y: p0.y, halfWidth: (p1.x - p0.x) / 2, height: p2.y - p0.y });
        }
        c.path = [];
        fill.apply(this, a);
      };
    });
  }, 240_000);

  afterAll(async () => {
    await web?.close();
    if (runsDir) await rm(runsDir, { recursive: true, force: true });
  });

  it('draws no label over another, zoomed out with the electrode groups folded', async () => {
    const { page } = web.session;
    await page.goto(`${web.serve.url}#/live?run=${run.runId}`);
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-spans') ?? 0) > 0, TIMELINE, { timeout: 30_000 });
    for (const toggle of await page.locator('[data-testid^="track-toggle-electrodes:"][aria-expanded="true"]').all()) await toggle.click();
    await page.waitForTimeout(800);
    const texts = await lastPaintTexts(page);
    expect(texts.length).toBeGreaterThan(5);
    expect(overlaps(texts)).toEqual([]);
    const canvasWidth = await page.locator(`${TIMELINE} canvas`).evaluate((c) => c.getBoundingClientRect().width);
    for (const t of texts) expect(t.x + t.width, `"${t.text}"`).toBeLessThanOrEqual(canvasWidth + 0.5);
    await page.locator(TIMELINE).screenshot({ path: join(ARTIFACTS_DIR, 'timeline-readable-folded.png') });
  });

  it('shows counter labels whole, the counters that moved first, the flat ones folded', async () => {
    const { page } = web.session;
    const shown = () => page.locator('[data-testid="counter-track"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-label'), e.getAttribute('data-flat')]));
    const before = await shown();
    expect(before.map(([label]) => label)).toContain('engine RSS (sampled by service)');
    expect(before.every(([, flat]) => flat === 'false')).toBe(true);
    const cut = await page.locator('[data-testid="counter-name"], [data-testid="counter-note"]').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut).toEqual([]);
    await page.click('[data-testid="counter-tracks-toggle"]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="counter-track"]').length > n, before.length);
    const after = await shown();
    expect(after.length).toBeGreaterThan(before.length);
    const firstFlat = after.findIndex(([, flat]) => flat === 'true');
    expect(firstFlat).toBeGreaterThanOrEqual(before.length);
    expect(after.slice(firstFlat).every(([, flat]) => flat === 'true')).toBe(true);
    expect(after.slice(firstFlat).map(([label]) => label)).toEqual(expect.arrayContaining(['GPU memory used', 'worker 2 tensor bytes']));
    expect(web.session.problems).toEqual([]);
  });

  it('names the instant under the pointer: a routine note quietly, a warning as one', async () => {
    const { page } = web.session;
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    const chevrons = await drawnChevrons(page);
    const big = chevrons.filter((c) => c.halfWidth > 3.5);
    const small = chevrons.filter((c) => c.halfWidth <= 3.5);
    // one warning drawn large, and the routine notes small (two lanes × ten moments, some may merge at this zoom)
    expect(big).toHaveLength(1);
    expect(small.length).toBeGreaterThanOrEqual(2);
    const box = (await page.locator(`${TIMELINE} canvas`).first().boundingBox())!;
    const tip = page.locator('[data-testid="timeline-tip"]');
    const pointAt = async (c: DrawnChevron): Promise<string> => {
      await page.mouse.move(box.x + c.x, box.y + c.y + c.height / 2);
      await tip.waitFor({ state: 'visible', timeout: 5_000 });
      return (await tip.innerText()).replace(/\s+/g, ' ');
    };
    // every small chevron names a routine note (the synthetic run's own and the flushes added above)
    const noteTips: string[] = [];
    for (const c of small.filter((c) => Math.abs(c.x - big[0]!.x) > 20).slice(0, 24)) noteTips.push(await pointAt(c));
    for (const t of noteTips) expect(t).toMatch(/ routine note: .* at \d/);
    expect(noteTips.find((t) => t.startsWith('subnormal flush'))).toMatch(/^subnormal flush routine note: whether compensated flushed weights/);
    const note = small.find((c) => Math.abs(c.x - big[0]!.x) > 20)!;
    const warnTip = await pointAt(big[0]!);
    expect(warnTip).toMatch(/^kernel compile failed warning: something went wrong here at \d/);
    // off the chevrons, on an empty part of the ruler's row below them, no instant is named
    await page.mouse.move(box.x + note.x, box.y + note.y - 12);
    await page.waitForTimeout(200);
    if (await tip.isVisible()) expect(await tip.innerText()).not.toMatch(/routine note|warning/);
    await page.locator(TIMELINE).screenshot({ path: join(ARTIFACTS_DIR, 'timeline-instant-tip.png') });
    expect(web.session.problems).toEqual([]);
  });
});
