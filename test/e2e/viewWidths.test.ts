/**
 * Every view fits a laptop's window: in web mode, in Debian's Chromium, at 1280 × 800 and at
 * 1400 × 900, with a finished run to show (the small place preset, its likelihood saved so the
 * Decode view has rows, and run twice so the Runs view compares them), no view makes the page
 * scroll sideways. Wide tables scroll inside their own box instead. Screenshots of Results, the
 * Live run view (its counter tracks) and Compare go to test-artifacts/ for a look by eye.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunId } from '../../src/shared/runIds';
import { runCli, startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/viewWidths.test.ts skipped: ${reason}`);

const SOON = { timeout: 15_000 };
const VIEWS = ['data', 'setup', 'live', 'results', 'decode', 'runs', 'sweeps', 'export'] as const;
const SIZES = [{ width: 1280, height: 800 }, { width: 1400, height: 900 }] as const;


describe.skipIf(reason !== null)(`views at laptop widths${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let workDir: string;
  let runId: string;
  let otherRunId: string;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'kde-e2e-widths-'));
    const runsDir = join(workDir, 'runs');
    const run = ['run', '--data', 'preset:place', '--strategy', 'reference,nld-dispatch', '--repeats', '2', '--warmup', '0', '--save-likelihood', '--runs-dir', runsDir];
    await runCli(run);
    await runCli(run);
    [runId, otherRunId] = (await readdir(runsDir)).filter((f) => isRunId(f)).sort() as [string, string];
    web = await startWebSession({ runsDir });
  }, 300_000);

  afterAll(async () => {
    await web?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  for (const size of SIZES) {
    it(`no view scrolls the page sideways at ${size.width} × ${size.height}`, async () => {
      const { page, problems } = web.session;
      await page.setViewportSize(size);
      const overflowing: string[] = [];
      const shot = (name: string) => web.session.screenshot(`${name}-${size.width}x${size.height}`);
      for (const view of VIEWS) {
        await page.goto(`${web.serve.url}#/${view}?run=${otherRunId}`);
        await expect.poll(async () => page.getByTestId(`nav-${view}`).getAttribute('aria-current'), SOON).toBeTruthy();
        if (view === 'results') await expect.poll(() => page.getByTestId('accuracy-table').count(), SOON).toBe(1);
        if (view === 'live') await expect.poll(() => page.getByTestId('counter-track').count(), SOON).toBeGreaterThan(0);
        // charts size themselves after the first frame; give them one
        await page.waitForTimeout(500);
        const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        if (widths.scroll > widths.inner) overflowing.push(`${view}: scrollWidth ${widths.scroll} > innerWidth ${widths.inner}`);
        if (view === 'results' || view === 'live') await shot(view);
      }
      await page.goto(`${web.serve.url}#/runs?compare=${runId},${otherRunId}`);
      await expect.poll(() => page.getByTestId('compare-table').count(), SOON).toBe(1);
      await page.waitForTimeout(500);
      const compare = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      if (compare.scroll > compare.inner) overflowing.push(`compare: scrollWidth ${compare.scroll} > innerWidth ${compare.inner}`);
      await shot('compare');
      expect(overflowing).toEqual([]);
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
