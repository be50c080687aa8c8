/**
 * What a new lab member does in web mode, in Debian's Chromium: open the printed URL (the page
 * then keeps its token out of the address bar, history and cookies, yet finds it on a reload),
 * load a preset, run every strategy, watch a run grow live, read the results, see the likelihood
 * heatmap, export a trace and check it, compare two runs, cancel a run. One server and one browser for the
 * file; the tests run in order and each leans on the ones before. Every view is saved as a
 * screenshot under test-artifacts/ (light, then dark), and any console or page error fails a test.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../src/shared/config';
import { ARTIFACTS_DIR, chromiumExists, startWebSession } from './harness';
import { LABEL_PX } from '../../src/renderer/src/timeline/drawTracks';
import { canvasStats, checkGzipTrace, connectedToServer, settleCharts, tokenTraces } from './webModeChecks';

const reason = chromiumExists() ? null : 'no Chromium at /usr/bin/chromium (Debian package "chromium")';
if (reason) console.warn(`test/e2e/webMode.test.ts skipped: ${reason}`);

const ALL_STRATEGIES: readonly string[] = [...STRATEGIES, 'auto'];
const LIVE_STRATEGIES = ['reference', 'compensated', 'streaming'];
/** how long a poll waits for the page to catch up, where nothing slow is expected */
const SOON = { timeout: 10_000 };
const VIEWS = ['data', 'setup', 'live', 'results', 'decode', 'runs', 'export'] as const;

describe.skipIf(reason !== null)(`web mode, a new user's session${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let web: Awaited<ReturnType<typeof startWebSession>>;
  let page: Page;
  /** the small all-strategies run, then the medium live run */
  const runIds: string[] = [];

  const status = async (): Promise<string> => ((await page.getByTestId('run-status').textContent()) ?? '').trim();
  const go = async (view: (typeof VIEWS)[number]): Promise<void> => {
    await page.getByTestId(`nav-${view}`).click();
    await expect.poll(() => page.locator(`[data-testid="nav-${view}"][aria-current="page"]`).count(), SOON).toBe(1);
  };

  async function loadPreset(name: string, electrodes: number): Promise<void> {
    await go('data');
    await page.getByTestId('preset-select').selectOption(name);
    await page.getByTestId('load-preset').click();
    await expect.poll(async () => (await page.getByTestId('summary-electrodes').textContent())?.trim(), { timeout: 30_000 }).toBe(String(electrodes));
    await expect.poll(() => page.getByTestId('dataset-summary').textContent(), SOON).toContain(name);
  }

  async function chooseStrategies(wanted: readonly string[]): Promise<void> {
    for (const s of ALL_STRATEGIES) {
      const box = page.getByTestId(`strategy-${s}`);
      if (wanted.includes(s)) await box.check();
      else await box.uncheck();
    }
  }

  async function startRun(): Promise<string> {
    await expect.poll(() => page.getByTestId('start-run').isEnabled(), SOON).toBe(true);
    await page.getByTestId('start-run').click();
    await expect.poll(() => page.locator('[data-testid="nav-live"][aria-current="page"]').count(), SOON).toBe(1);
    await expect.poll(async () => ((await page.getByTestId('live-run-id').textContent()) ?? '').trim(), { timeout: 15_000 }).toMatch(/^\d{8}-\d{6}-[0-9a-f]+$/);
    return ((await page.getByTestId('live-run-id').textContent()) ?? '').trim();
  }

  /** a screenshot once the charts have finished animating */
  async function shot(name: string): Promise<void> {
    await settleCharts(page);
    await web.session.screenshot(name);
  }

  beforeAll(async () => {
    web = await startWebSession();
    page = web.session.page;
  }, 180_000);

  afterAll(async () => {
    await web?.close();
  });

  // every view must load without console errors, uncaught exceptions or failed requests
  afterEach(() => {
    if (!web) return;
    const seen = web.session.problems.splice(0);
    expect(seen).toEqual([]);
  });

  it('opens the URL the server printed, token included', async () => {
    expect(web.serve.output()).toContain(web.serve.url);
    expect(web.serve.url).toContain(`?token=${web.serve.token}`);
    expect(await page.title()).toBe('KDE Profiler');
    await expect.poll(() => page.getByRole('heading', { name: 'Data', level: 2 }).count(), SOON).toBe(1);
    await expect.poll(() => connectedToServer(page), SOON).toBe(true);
  });

  it('keeps the token out of the address bar, the history and cookies; the route and reloads still work', async () => {
    const origin = web.serve.origin;
    const noTraces = { documentCookie: '', browserCookies: [], storedToken: web.serve.token };
    expect(await tokenTraces(page)).toEqual({ address: `${origin}/`, ...noTraces });

    // a link to a view (as `kde-profiler serve --open` prints) keeps its hash route
    await page.goto(`${web.serve.url}#/runs`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('[data-testid="nav-runs"][aria-current="page"]').count(), SOON).toBe(1);
    await expect.poll(() => connectedToServer(page), SOON).toBe(true);
    expect(await tokenTraces(page)).toEqual({ address: `${origin}/#/runs`, ...noTraces });

    // a reload has no token in the address bar: it finds the one the page stored
    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => page.locator('[data-testid="nav-runs"][aria-current="page"]').count(), SOON).toBe(1);
    await expect.poll(() => connectedToServer(page), SOON).toBe(true);
    expect(await tokenTraces(page)).toEqual({ address: `${origin}/#/runs`, ...noTraces });

    // the history entry of the first load was rewritten too
    await page.goBack({ waitUntil: 'load' });
    expect(page.url()).toBe(`${origin}/`);
    await expect.poll(() => connectedToServer(page), SOON).toBe(true);
  });

  it('a link copied into a new tab of the same browser works without the token (the origin keeps it)', async () => {
    const tab = await page.context().newPage();
    try {
      await tab.goto(`${web.serve.origin}/#/runs`, { waitUntil: 'load' });
      await expect.poll(() => tab.locator('[data-testid="nav-runs"][aria-current="page"]').count(), SOON).toBe(1);
      await expect.poll(() => connectedToServer(tab), SOON).toBe(true);
      expect(await tokenTraces(tab)).toEqual({ address: `${web.serve.origin}/#/runs`, documentCookie: '', browserCookies: [], storedToken: web.serve.token });
    } finally {
      await tab.close();
    }
  });

  it('a tab that never had the token loads the page and says which link to open', async () => {
    const context = await web.session.browser.newContext();
    try {
      const stranger = await context.newPage();
      await stranger.goto(`${web.serve.origin}/#/runs`, { waitUntil: 'load' });
      expect(await stranger.title()).toBe('KDE Profiler');
      await expect.poll(() => stranger.getByTestId('service-error').textContent(), SOON).toMatch(/no access token\. Open the link that `kde-profiler serve` printed/);
      expect(await stranger.getByTestId('connection-banner').count()).toBe(0);
      expect(await context.cookies()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Data: picks preset small and sees the dataset summary, electrodes and preview', async () => {
    await loadPreset('small', 8);
    await expect.poll(() => page.getByTestId('electrode-table').locator('tbody tr').count(), SOON).toBe(8);
    await expect.poll(async () => (await canvasStats(page, 'data-preview')).paintedFraction, { timeout: 10_000 }).toBeGreaterThan(0.02);
    expect(await page.getByTestId('data-error').count()).toBe(0);
    await shot('data');
  });

  it('Run setup: selects every strategy, sees the memory estimate, starts; the run completes', async () => {
    await page.getByTestId('go-setup').click();
    await expect.poll(() => page.getByRole('heading', { name: 'Run setup' }).count(), SOON).toBe(1);
    await chooseStrategies(ALL_STRATEGIES);
    // one estimate row per chosen strategy, each with a size in bytes
    const peaks = () => page.getByTestId('memory-estimate').locator('tbody tr td.num').allTextContents();
    await expect.poll(async () => (await peaks()).length, SOON).toBe(ALL_STRATEGIES.length);
    for (const p of await peaks()) expect(p).toMatch(/^\d[\d.]* (B|KiB|MiB|GiB)$/);
    expect(await page.getByTestId('estimate-reference').textContent()).toMatch(/\d/);
    expect(await page.getByTestId('start-blocker').count()).toBe(0);
    // the app repeats until stable by default, as `--repeats auto`; this run takes its 3 repeats only
    expect(await page.getByTestId('repeats-auto').isChecked()).toBe(true);
    await page.getByTestId('repeats-auto').uncheck();
    // the posterior's parameters appear with a model, the detector's with the detector; a bad one blocks Start with its reason
    expect(await page.getByTestId('movement-var').count()).toBe(0);
    await page.getByTestId('posterior-model').selectOption('decoder');
    await expect.poll(() => page.getByTestId('movement-var').count(), SOON).toBe(1);
    expect(await page.getByTestId('local-position-std').count()).toBe(0);
    await page.getByTestId('posterior-model').selectOption('detector');
    await expect.poll(() => page.getByTestId('discrete-transition').count(), SOON).toBe(1);
    await page.getByTestId('movement-var').fill('-1');
    await expect.poll(() => page.getByTestId('start-blocker').textContent(), SOON).toMatch(/^Posterior parameters: --movement-var: expected a positive number/);
    await page.getByTestId('movement-var').fill('2.5');
    await page.getByTestId('local-position-std').fill('0');
    await expect.poll(() => page.getByTestId('start-blocker').count(), SOON).toBe(0);
    await shot('setup-posterior');
    await page.getByTestId('posterior-model').selectOption('none');
    await expect.poll(() => page.getByTestId('movement-var').count(), SOON).toBe(0);
    await shot('setup');
    runIds.push(await startRun());
    await expect.poll(status, { timeout: 60_000, interval: 250 }).toBe('completed');
    await expect.poll(() => page.getByTestId('progress-percent').textContent(), SOON).toBe('100 %');
    expect(await page.getByTestId('run-error').count()).toBe(0);
  }, 90_000);

  it('Results: the timing table has a row per strategy, with findings and a recommendation', async () => {
    await page.getByTestId('open-results').click();
    const table = page.getByTestId('results-table');
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBe(ALL_STRATEGIES.length);
    const strategies = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-strategy')));
    expect(strategies.sort()).toEqual([...ALL_STRATEGIES].sort());
    expect(await table.locator('tr.failed').count()).toBe(0);
    const totals = await table.getByTestId('total-median').allTextContents();
    expect(totals).toHaveLength(ALL_STRATEGIES.length);
    for (const t of totals) expect(t).toMatch(/\d/);
    expect(await page.getByTestId('recommendation').textContent()).toMatch(/Use \S+ with block size \d+/);
    expect(await page.getByTestId('report-findings').count()).toBe(1);
    expect(await page.getByTestId('results-summary').textContent()).toContain('small');
    // a run started from a page ran its engine below normal priority, and Results says so
    expect(await page.getByTestId('engine-niceness').textContent()).toMatch(/engine at nice (1\d) \(below normal priority\)/);
    await expect.poll(async () => (await canvasStats(page, 'timing-chart')).paintedFraction, SOON).toBeGreaterThan(0.01);
    await shot('results');
  });

  it('Likelihood: the heatmap is drawn, and switching strategy redraws it', async () => {
    await go('decode');
    // a heatmap, not a blank or single-colour box: many colours over most of the plot area
    const drawn = async () => {
      const s = await canvasStats(page, 'likelihood-heatmap');
      return s.distinctColors > 20 && s.paintedFraction > 0.3 ? 'drawn' : `${s.distinctColors} colours, ${(s.paintedFraction * 100).toFixed(0)} % painted`;
    };
    await expect.poll(drawn, { timeout: 15_000 }).toBe('drawn');
    await page.getByTestId('likelihood-strategy-compensated').click();
    await expect.poll(() => page.getByTestId('likelihood-strategy-compensated').getAttribute('aria-pressed'), SOON).toBe('true');
    await expect.poll(drawn, { timeout: 15_000 }).toBe('drawn');
    expect(await page.getByTestId('likelihood-error').count()).toBe(0);
    await shot('likelihood');
  });

  it('Export: the trace downloads as gzip JSON that passes the structural check', async () => {
    await go('export');
    expect(await page.getByTestId('export-run-picker').inputValue()).toBe(runIds[0]);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('export-trace').click()]);
    expect(download.suggestedFilename()).toMatch(/\.json\.gz$/);
    const bytes = new Uint8Array(await readFile(await download.path()));
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await writeFile(join(ARTIFACTS_DIR, 'e2e-trace.json.gz'), bytes);
    const trace = checkGzipTrace(bytes);
    expect(trace.problems).toEqual([]);
    expect(trace.spans).toBeGreaterThan(10);
    expect(trace.counters).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('export-message').textContent(), SOON).toContain('Downloaded');
    await shot('export');
  });

  it('Live run: progress, timeline and memory chart change while a medium run is still running', async () => {
    await loadPreset('medium', 16);
    await go('setup');
    await chooseStrategies(LIVE_STRATEGIES);
    await page.getByTestId('repeats-auto').uncheck();
    await page.getByTestId('repeats').fill('12');
    await page.getByTestId('warmup').fill('1');
    runIds.push(await startRun());

    // status is read before and after the other values: a look counts only if the run was running throughout
    const observe = async () => {
      const before = await status();
      const events = Number(await page.getByTestId('timeline').getAttribute('data-total-events'));
      const progressPct = Number(await page.getByRole('progressbar').getAttribute('aria-valuenow'));
      const memory = (await canvasStats(page, 'memory-chart')).signature;
      const after = await status();
      return { status: before === after ? after : `${before} → ${after}`, events, progressPct, memory };
    };
    // the first look needs spans on the timeline and a memory chart already drawn, so a later change is an update
    await expect
      .poll(async () => (await observe()).events > 0 && (await canvasStats(page, 'memory-chart')).paintedFraction > 0.01, { timeout: 30_000, interval: 100 })
      .toBe(true);
    const first = await observe();
    expect(first.status).toBe('running');
    const changed = { events: false, progress: false, memory: false };
    let last = first;
    let screenshotTaken = false;
    // watch until all three moved; each look counts only while the run still says running
    while (!(changed.events && changed.progress && changed.memory)) {
      await page.waitForTimeout(300);
      const now = await observe();
      if (now.status !== 'running') break;
      changed.events ||= now.events > first.events;
      changed.progress ||= now.progressPct > first.progressPct;
      changed.memory ||= now.memory !== first.memory;
      if (!screenshotTaken && changed.events) {
        await web.session.screenshot('live');
        screenshotTaken = true;
      }
      last = now;
    }
    expect({ changed, first, last }).toMatchObject({ changed: { events: true, progress: true, memory: true } });
    expect(screenshotTaken).toBe(true);
    expect(Number(await page.getByTestId('timeline').getAttribute('data-spans'))).toBeGreaterThan(0);
    // memory and tensors as counter tracks above the spans, their plot on the spans' left edge and axis
    const counters = Number(await page.getByTestId('counter-tracks').getAttribute('data-tracks'));
    expect(counters).toBeGreaterThan(1);
    // two workers' counters and the engine's are more than the six shown until the person asks for
    // all; counters that never moved wait there too
    const folded = await page.evaluate(() => ({
      shown: document.querySelectorAll('[data-testid="counter-track"]').length,
      folded: Number(document.querySelector('[data-testid="counter-tracks"]')!.getAttribute('data-folded')),
    }));
    expect(folded.shown).toBe(folded.folded);
    expect(folded.shown).toBeLessThanOrEqual(6);
    if (counters > folded.shown) {
      await page.getByTestId('counter-tracks-toggle').click();
      expect(await page.getByTestId('counter-track').count()).toBe(counters);
      await page.getByTestId('counter-tracks-toggle').click();
    }
    await expect.poll(async () => (await canvasStats(page, 'counter-tracks')).paintedFraction, SOON).toBeGreaterThan(0.01);
    const plotOffset = await page.evaluate(() => {
      const counter = document.querySelector('[data-testid="counter-track"] canvas')!.getBoundingClientRect().left;
      return counter - document.querySelector('[data-testid="timeline"]')!.getBoundingClientRect().left;
    });
    expect(plotOffset).toBe(LABEL_PX);
    // near the window's end every counter has a sample at or before the pointer (before its first one it reads –)
    const strip = page.getByTestId('counter-track').first().locator('canvas');
    const box = (await strip.boundingBox())!;
    await strip.hover({ position: { x: box.width - 3, y: box.height / 2 } });
    await expect.poll(async () => (await page.getByTestId('counter-value').allTextContents()).some((t) => /\d/.test(t)), SOON).toBe(true);
    await expect.poll(status, { timeout: 90_000, interval: 500 }).toBe('completed');
  }, 150_000);

  it('Runs: both runs are listed; comparing them gives a verdict', async () => {
    await go('runs');
    await page.getByTestId('refresh-runs').click();
    for (const id of runIds) {
      await expect.poll(() => page.locator(`tr[data-run-id="${id}"] .status`).textContent(), { timeout: 10_000 }).toBe('completed');
    }
    expect(await page.getByTestId('runs-table').locator('tbody tr[data-run-id]').count()).toBe(2);
    await shot('runs');
    for (const id of runIds) await page.getByTestId(`select-run-${id}`).check();
    await page.getByTestId('compare-runs').click();
    await expect.poll(() => page.getByTestId('compare-verdict').textContent(), { timeout: 15_000 }).toMatch(/^(Regression|No regression|No regression, but (A|B|A and B) (was|were) measured on a busy machine|Inconclusive \(machine busy\)) \(threshold \d+ %\): \S/);
    await expect.poll(() => page.getByTestId('compare-table').locator('tbody tr').count(), SOON).toBeGreaterThan(0);
    await expect.poll(async () => (await canvasStats(page, 'compare-chart')).paintedFraction, SOON).toBeGreaterThan(0.01);
    expect(await page.getByTestId('compare-error').count()).toBe(0);
    await shot('compare');
  });

  it('Cancel: a long run (medium, every strategy, 5 repeats) shows cancelled within seconds and is listed so', async () => {
    await go('setup');
    await chooseStrategies(ALL_STRATEGIES);
    await page.getByTestId('repeats-auto').uncheck();
    await page.getByTestId('repeats').fill('5');
    const id = await startRun();
    await expect.poll(async () => Number(await page.getByTestId('timeline').getAttribute('data-total-events')), { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    // the status line and the timeline are two components: under load one may render a frame after the other
    await expect.poll(status, { timeout: 2_000, interval: 50 }).toBe('running');
    const askedAt = Date.now();
    await page.getByTestId('cancel-run').click();
    await expect.poll(status, { timeout: 5_000, interval: 100 }).toBe('cancelled');
    const tookMs = Date.now() - askedAt;
    expect(tookMs).toBeLessThan(5_000);
    expect(await page.getByTestId('run-error').count()).toBe(0);
    await shot('cancelled');
    await go('runs');
    await page.getByTestId('refresh-runs').click();
    await expect.poll(() => page.locator(`tr[data-run-id="${id}"] .status`).textContent(), { timeout: 10_000 }).toBe('cancelled');
  }, 60_000);

  it('every view renders in the dark theme too', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), SOON).toBe('dark');
    await page.getByTestId(`open-run-${runIds[0]}`).click();
    await expect.poll(() => page.getByTestId('results-table').locator('tbody tr').count(), { timeout: 15_000 }).toBe(ALL_STRATEGIES.length);
    for (const v of VIEWS) {
      await go(v);
      await shot(`${v}-dark`);
    }
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
    expect(r! + g! + b!).toBeLessThan(200);
  }, 60_000);
});
