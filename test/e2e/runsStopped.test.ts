/**
 * The Runs view in Chromium against web mode says what `kde-profiler list` says of a run that
 * ended early: how far it got ("at 16 % (logsumexp-tiled · repeat 3/10)" under its status, from
 * the progress its folder kept), and that a time it measured is a first call, not a warm median.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedStatus, writeRunFolders } from '../../src/main/service/store/runStoreTesting.testdata';
import { startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/runsStopped.test.ts skipped: ${reason}`);

const CANCELLED = '20250101-000002-000002';
const COMPLETED = '20250101-000000-000000';
const SOON = { timeout: 15_000 };

describe.skipIf(reason !== null)(`a run that ended early, in Runs${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let base: string;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'kde-e2e-runs-stopped-'));
    const runsDir = join(base, 'runs');
    await mkdir(runsDir);
    await writeRunFolders(runsDir, [
      finishedStatus(COMPLETED, { createdAt: '2025-01-01T00:00:00.000Z', headline: [{ strategy: 'reference', totalMedianMs: 26 }] }),
      finishedStatus(CANCELLED, {
        createdAt: '2025-01-01T00:00:02.000Z', status: 'cancelled', strategies: ['reference', 'logsumexp-tiled'],
        headline: [{ strategy: 'reference', totalMedianMs: 25.6, firstCallOnly: true }],
      }),
    ]);
    const progress = { fraction: 0.163, label: 'logsumexp-tiled · repeat 3/10', elapsedMs: 9000, basis: 'time' };
    await writeFile(join(runsDir, CANCELLED, 'progress.json'), JSON.stringify({ type: 'progress', runId: CANCELLED, progress }));
    web = await startWebSession({ runsDir });
  }, 180_000);

  afterAll(async () => {
    await web?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('says how far it got and marks its first-call time, and says nothing of the kind for a completed run', async () => {
    const page = web.session.page;
    await page.evaluate(() => (location.hash = '#/runs'));
    const cancelled = page.locator(`tr[data-run-id="${CANCELLED}"]`);
    await expect.poll(() => cancelled.getByTestId('run-stopped').textContent(), SOON).toBe('at 16 % (logsumexp-tiled · repeat 3/10)');
    expect(await cancelled.getByTestId('run-stopped').getAttribute('title')).toBe('stopped at 16 % (logsumexp-tiled · repeat 3/10)');
    const total = cancelled.getByTestId('run-total');
    expect((await total.innerText()).replace(/\s+/g, ' ').trim()).toBe('reference 25.6 ms first call only');
    expect(await total.getByTestId('run-first-call').textContent()).toBe('first call only');
    expect(await total.getAttribute('title')).toBe('reference 25.6 ms (first call)');
    const completed = page.locator(`tr[data-run-id="${COMPLETED}"]`);
    expect(await completed.getByTestId('run-stopped').count()).toBe(0);
    expect(await completed.textContent()).toContain('reference 26 ms');
    expect(await completed.textContent()).not.toContain('first call');
    for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
      await page.setViewportSize({ width, height });
      // the cell's words are whole at both sizes, the first-call note included
      expect(await total.evaluate((td) => td.scrollWidth <= td.clientWidth + 1), `total cut at ${width} px`).toBe(true);
      await web.session.screenshot(`runs-stopped-${width}x${height}`);
    }
    expect(web.session.problems).toEqual([]);
  });
});
