/**
 * The Runs view on a large run history, in Chromium against web mode: before, it put a row in the
 * page for every run (20 000 runs: 37 s before the view answered). Now it renders the rows in view
 * between two spacers, fetching each page of runs as it comes into view, so the page holds a few
 * dozen rows whatever the history, and scrolling to the end shows the oldest run.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedStatus, runIdsInOrder, writeRunFolders } from '../../src/main/service/store/runStoreTesting.testdata';
import { startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/runsScale.test.ts skipped: ${reason}`);

/** fifteen pages of runs: enough that the end of the list is pages away from its start */
const RUNS = 3000;
const SOON = { timeout: 15_000 };

describe.skipIf(reason !== null)(`the Runs view of ${RUNS} runs${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let base: string;
  let web: Awaited<ReturnType<typeof startWebSession>>;
  let page: Page;
  const ids = runIdsInOrder(RUNS);
  const rows = () => page.getByTestId('runs-table').locator('tbody tr[data-run-id]');

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'kde-e2e-runs-scale-'));
    const runsDir = join(base, 'runs');
    await mkdir(runsDir);
    await writeRunFolders(runsDir, ids.map(({ id, createdAt }, i) => finishedStatus(id, { createdAt, label: `run ${i}` })));
    web = await startWebSession({ runsDir });
    page = web.session.page;
  }, 180_000);

  afterAll(async () => {
    await web?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('renders far fewer rows than runs, and says how many rows the whole table has', async () => {
    await page.evaluate(() => (location.hash = '#/runs'));
    await expect.poll(() => page.locator(`tr[data-run-id="${ids.at(-1)!.id}"]`).count(), SOON).toBe(1);
    expect(await rows().count()).toBeLessThan(100);
    expect(await page.getByTestId('runs-table').getAttribute('aria-rowcount')).toBe(String(RUNS + 1));
  });

  it('scrolls to the last run, the oldest, and ticks it', async () => {
    const oldest = ids[0]!.id;
    await page.getByTestId('runs-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => page.locator(`tr[data-run-id="${oldest}"]`).count(), SOON).toBe(1);
    expect(await rows().count()).toBeLessThan(100);
    // in view inside the scroller, not merely in the page
    const [box, row] = [await page.getByTestId('runs-scroll').boundingBox(), await page.locator(`tr[data-run-id="${oldest}"]`).boundingBox()];
    expect(row!.y).toBeGreaterThanOrEqual(box!.y);
    expect(row!.y + row!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);
    await page.getByTestId(`select-run-${oldest}`).check();
    await expect.poll(() => page.getByText('Tick two runs to compare (1/2).').count(), SOON).toBe(1);
    expect(web.session.problems).toEqual([]);
  });
});
