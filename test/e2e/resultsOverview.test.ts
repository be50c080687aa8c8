/**
 * What a lab sees first on Results, in Debian's Chromium against web mode, for a run, a decode and
 * a run cancelled part way: one overview at the top (speed, accuracy of what the lab reads, where
 * the time goes, memory against the machine) within the first screen at 1280 × 800, no empty
 * panel, a cancelled run's report of what it measured. Then the links and lists around it: an
 * export link opens that run's exports, Runs shows each run's id, and a comparison's verdict is in
 * view without scrolling past the list.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunId } from '../../src/shared/runIds';
import { REPO_ROOT } from './electronBinary';
import { runCli, startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/resultsOverview.test.ts skipped: ${reason}`);

const SOON = { timeout: 15_000 };
const CLI = join(REPO_ROOT, 'bin', 'kde-profiler.mjs');

async function newRun(runsDir: string, known: ReadonlySet<string>): Promise<string> {
  return (await readdir(runsDir)).find((f) => isRunId(f) && !known.has(f))!;
}

/** A run of three strategies stopped by Ctrl-C once the third has begun its first calls: the first two made theirs. */
async function cancelledRun(runsDir: string, known: ReadonlySet<string>): Promise<string> {
  const args = ['run', '--data', 'preset:place', '--strategy', 'reference,logsumexp,compensated', '--repeats', '40', '--backend', 'wasm', '--runs-dir', runsDir, '--out', join(runsDir, '..', 'cancelled')];
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  let id: string | undefined;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the run never reached compensated');
    await new Promise((r) => setTimeout(r, 100));
    id ??= await newRun(runsDir, known);
    if (!id) continue;
    const progress = await readFile(join(runsDir, id, 'progress.json'), 'utf8').catch(() => '');
    if (/"label":\s*"compensated/.test(progress)) break;
  }
  child.kill('SIGINT');
  await exited;
  return id!;
}

/** the element's box lies inside the first screen */
async function inFirstScreen(page: Page, testid: string): Promise<boolean> {
  const box = await page.getByTestId(testid).boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe.skipIf(reason !== null)(`Results' overview and the links around it${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let workDir: string;
  const ids = { run: '', decode: '', cancelled: '' };
  let web: Awaited<ReturnType<typeof startWebSession>>;
  let page: Page;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'kde-e2e-overview-'));
    const runsDir = join(workDir, 'runs');
    const known = new Set<string>();
    await runCli(['run', '--data', 'preset:place', '--strategy', 'reference,compensated', '--repeats', '3', '--backend', 'wasm', '--out', join(workDir, 'run'), '--runs-dir', runsDir]);
    known.add((ids.run = await newRun(runsDir, known)));
    await runCli(['decode', '--data', 'preset:place', '--model', 'detector', '--backend', 'wasm', '--out', join(workDir, 'decode'), '--runs-dir', runsDir]);
    known.add((ids.decode = await newRun(runsDir, known)));
    ids.cancelled = await cancelledRun(runsDir, known);
    web = await startWebSession({ runsDir });
    page = web.session.page;
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 300_000);

  afterAll(async () => {
    await web?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** a fresh load of the address (the page drops the token from its own, so this is never a same-page hash change) */
  const open = async (hash: string): Promise<void> => {
    await page.goto(`${web.serve.url}#/${hash}`);
  };

  it("puts a run's speed, accuracy, memory and stages on its first screen", async () => {
    await open(`results?run=${ids.run}`);
    await expect.poll(() => page.getByTestId('results-overview').count(), SOON).toBe(1);
    for (const part of ['overview-speed', 'overview-accuracy', 'overview-memory', 'overview-stages']) {
      expect(await inFirstScreen(page, part), `${part} in the first screen`).toBe(true);
    }
    expect(await page.getByTestId('overview-speed').textContent()).toMatch(/The fastest of 2, to fit and decode \(warm median of 3 repeats\)\. The next, (reference|compensated)/);
    expect(await page.getByTestId('stage-key').allTextContents()).toEqual([expect.stringMatching(/^fit /), expect.stringMatching(/^likelihood /)]);
    await web.session.screenshot('results-overview-run-1280');
    expect(web.session.problems).toEqual([]);
  });

  it('shows a decode the posterior it reads, its whole breakdown, and no empty panel', async () => {
    await open(`results?run=${ids.decode}`);
    await expect.poll(() => page.getByTestId('results-overview').count(), SOON).toBe(1);
    expect(await page.getByTestId('overview-accuracy').textContent()).toContain('detector posterior');
    const keys = await page.getByTestId('stage-key').allTextContents();
    expect(keys.map((k) => k.split(/ \d/)[0])).toEqual(['fit', 'likelihood', 'local likelihood', 'filter', 'smoother']);
    expect(await page.getByTestId('overview-memory').textContent()).toMatch(/Measured: the engine process's peak RSS/);
    for (const empty of ['timing-chart', 'timing-chart-once', 'kernel-chart-empty', 'agreement-chart', 'memory-estimate-chart']) {
      expect(await page.getByTestId(empty).count(), `${empty} is not shown`).toBe(0);
    }
    expect(await page.locator('main').textContent()).not.toMatch(/No kernel profile|Agreement needs two strategies|No memory measurements/);
    await web.session.screenshot('results-overview-decode-1280');
    expect(web.session.problems).toEqual([]);
  });

  it('reports what a cancelled run measured before the cancel, and says it was cancelled', async () => {
    await open(`results?run=${ids.cancelled}`);
    await expect.poll(() => page.getByTestId('results-overview').count(), SOON).toBe(1);
    expect(await page.getByTestId('no-report').count()).toBe(0);
    expect(await page.getByTestId('overview-caveats').textContent()).toContain('The run was cancelled');
    const rows = await page.getByTestId('results-table').locator('tbody tr').evaluateAll((trs) => trs.map((r) => r.getAttribute('data-strategy')));
    expect(rows).toEqual(expect.arrayContaining(['reference', 'logsumexp']));
    expect(web.session.problems).toEqual([]);
  });

  it('opens the run an export link names', async () => {
    await open(`results?run=${ids.run}`);
    await expect.poll(() => page.getByTestId('results-run-picker').inputValue(), SOON).toBe(ids.run);
    await open(`export?run=${ids.decode}`);
    await expect.poll(() => page.getByTestId('export-run-picker').inputValue(), SOON).toBe(ids.decode);
    expect(web.session.problems).toEqual([]);
  });

  it("lists each run's id on Runs, and a comparison's verdict is in view without scrolling", async () => {
    await open('runs');
    await expect.poll(() => page.getByTestId('run-id').allTextContents(), SOON).toEqual(expect.arrayContaining([ids.run, ids.decode, ids.cancelled]));
    await open(`runs?compare=${ids.run},${ids.cancelled}`);
    await expect.poll(() => page.getByTestId('compare-verdict').count(), SOON).toBe(1);
    expect(await inFirstScreen(page, 'compare-verdict')).toBe(true);
    await web.session.screenshot('runs-compare-1280');
    expect(web.session.problems).toEqual([]);
  });
});
