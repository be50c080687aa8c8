/**
 * The timeline at production shape in Chromium: a finished 64-electrode run with two engine
 * workers (written by the UI benchmark's synthetic-run generator, in the run store's own format)
 * opened through a link, then scrolled, folded and unfolded, searched and summarised by area.
 * Screenshots of the tracks collapsed and expanded go to test-artifacts/ for a look by eye.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRun, type SyntheticRun } from '../../bench/ui/syntheticRun';
import { ARTIFACTS_DIR, startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/timelineTracks.test.ts skipped: ${reason}`);

const attr = async (page: Page, selector: string, name: string): Promise<number> => Number(await page.getAttribute(selector, name));
const TIMELINE = '[data-testid="timeline"]';

/** waits until the timeline has painted again after `before` paints */
async function paintedAfter(page: Page, before: number): Promise<void> {
  await page.waitForFunction(
    ([sel, n]) => Number(document.querySelector(sel as string)?.getAttribute('data-paint-count') ?? 0) > (n as number),
    [TIMELINE, before],
    { timeout: 15_000 },
  );
}

describe.skipIf(reason !== null)(`timeline tracks at 64 electrodes${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let runsDir: string;
  let run: SyntheticRun;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    runsDir = await mkdtemp(join(tmpdir(), 'kde-e2e-tracks-'));
    run = await writeSyntheticRun({ runsDir, events: 30_000, electrodes: 64, workers: 2, chromeTrace: false });
    web = await startWebSession({ runsDir });
  }, 240_000);

  afterAll(async () => {
    await web?.close();
    if (runsDir) await rm(runsDir, { recursive: true, force: true });
  });

  it('opens the run from a link, looking finished', async () => {
    const { page } = web.session;
    await page.goto(`${web.serve.url}#/live?run=${run.runId}`);
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-spans') ?? 0) > 0, TIMELINE, { timeout: 30_000 });
    expect(await page.textContent('[data-testid="live-run-id"]')).toContain(run.runId);
    expect(await page.textContent('[data-testid="progress-percent"]')).toBe('100 %');
    expect(page.url()).toContain(`#/live?run=${run.runId}`);
  });

  it('folds the electrode groups of a run too tall for a screen, and unfolds them on request', async () => {
    const { page } = web.session;
    const toggles = await page.locator('[data-testid^="track-toggle-electrodes:"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    expect(toggles).toHaveLength(2);
    for (const t of toggles) expect(await page.getAttribute(`[data-testid="${t}"]`, 'aria-expanded')).toBe('false');
    const folded = await attr(page, TIMELINE, 'data-tracks');
    await page.locator(TIMELINE).screenshot({ path: join(ARTIFACTS_DIR, 'timeline-64-collapsed.png') });

    for (const t of toggles) await page.click(`[data-testid="${t}"]`);
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel as string)?.getAttribute('data-tracks')) === (n as number) + 64, [TIMELINE, folded]);
    for (const t of toggles) expect(await page.getAttribute(`[data-testid="${t}"]`, 'aria-expanded')).toBe('true');
    expect(await page.locator('[data-testid^="track-engine:"][data-testid*="/electrode "]').count()).toBe(64);
    await page.locator(TIMELINE).screenshot({ path: join(ARTIFACTS_DIR, 'timeline-64-expanded.png') });

    await page.click(`[data-testid="${toggles[1]}"]`);
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel as string)?.getAttribute('data-tracks')) === (n as number) + 32, [TIMELINE, folded]);
  });

  it('scrolls the tracks vertically inside a fixed-height view', async () => {
    const { page } = web.session;
    const scroller = page.locator('[data-testid="timeline-scroller"]');
    const { clientHeight, scrollHeight } = await scroller.evaluate((e) => ({ clientHeight: e.clientHeight, scrollHeight: e.scrollHeight }));
    expect(scrollHeight).toBeGreaterThan(clientHeight * 1.5);
    const before = await attr(page, TIMELINE, 'data-paint-count');
    // a label's place inside the scroller: it moves up by what the tracks scrolled
    const labelTop = () => page.evaluate(() => {
      const label = document.querySelector('[data-testid="track-engine:2/electrode 20"]')!.getBoundingClientRect();
      return label.top - document.querySelector('[data-testid="timeline-scroller"]')!.getBoundingClientRect().top;
    });
    const topBefore = await labelTop();
    const scrolledBefore = await scroller.evaluate((e) => e.scrollTop);
    await scroller.evaluate((e) => (e.scrollTop = 400));
    await paintedAfter(page, before);
    expect(await scroller.evaluate((e) => e.scrollTop)).toBe(400);
    expect(await labelTop()).toBeCloseTo(topBefore - (400 - scrolledBefore), 0);
  });

  it('finds spans by name over the whole run and steps through the matches', async () => {
    const { page } = web.session;
    await page.fill('[data-testid="timeline-search"]', 'logsumexp');
    await page.press('[data-testid="timeline-search"]', 'Enter');
    await page.waitForFunction(() => /^1 \/ [\d,]+$/.test(document.querySelector('[data-testid="search-readout"]')?.textContent?.trim() ?? ''));
    const total = Number((await page.textContent('[data-testid="search-readout"]'))!.split('/')[1]!.replace(/[^\d]/g, ''));
    expect(total).toBeGreaterThan(100);
    expect(await page.textContent('[data-testid="span-details"] h3')).toBe('logsumexp');
    // the chain is read from the spans of the window at the match, which arrive after the readout
    await page.waitForFunction(() => /electrode \S+ › block \d+/.test(document.querySelector('[data-testid="span-parents"]')?.textContent ?? ''), undefined, { timeout: 15_000 });
    await page.click('[data-testid="search-next"]');
    await page.waitForFunction(() => /^2 \/ /.test(document.querySelector('[data-testid="search-readout"]')?.textContent?.trim() ?? ''));
    await page.click('[data-testid="search-previous"]');
    await page.waitForFunction(() => /^1 \/ /.test(document.querySelector('[data-testid="search-readout"]')?.textContent?.trim() ?? ''));
    // the window moved to the match: the readout names a window, not the whole run
    expect(await page.textContent('[data-testid="timeline-readout"]')).toContain('showing');
  });

  it('summarises an area dragged across the tracks', async () => {
    const { page } = web.session;
    await page.click('[data-testid="timeline-reset"]');
    await page.fill('[data-testid="timeline-search"]', '');
    await page.locator('[data-testid="timeline-scroller"]').evaluate((e) => (e.scrollTop = 0));
    const box = (await page.locator(`${TIMELINE} canvas`).boundingBox())!;
    // from a third of the run to two thirds, from the top track down past the workers
    await page.mouse.move(box.x + 200 + (box.width - 212) / 3, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 200 + ((box.width - 212) * 2) / 3, box.y + box.height - 20, { steps: 8 });
    await page.mouse.up();
    await page.waitForSelector('[data-testid="area-summary"] tbody tr');
    const names = await page.locator('[data-testid="area-summary"] tbody tr td:first-child').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(expect.arrayContaining(['decode']));
    expect(names.length).toBeGreaterThan(3);
    expect(await page.textContent('[data-testid="area-summary"] h4')).toMatch(/[\d,]+ spans on \d+ tracks/);
    await page.click('[data-testid="area-close"]');
    expect(await page.locator('[data-testid="area-summary"]').count()).toBe(0);
    expect(web.session.problems).toEqual([]);
  });
});
