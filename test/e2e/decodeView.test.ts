/**
 * The Decode view in web mode, in Debian's Chromium, on a real detector decode: `kde-profiler
 * decode --model detector` on the small place preset writes a run into a throwaway runs folder,
 * the page opens it from a link and shows the posterior heatmap with the MAP and true position,
 * the state-probability track under it and the non-local periods listed; a period's row zooms both
 * charts to it. A second decode, of the last tenth of a recording from make-recording, has Results
 * say what the whole recording would take. Screenshots go to test-artifacts/ for a look by eye.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunId } from '../../src/shared/runIds';
import { runCli, screenshotsAtLabSizes, startWebSession, webTestSkipReason } from './harness';
import { canvasStats } from './webModeChecks';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/decodeView.test.ts skipped: ${reason}`);

const SOON = { timeout: 15_000 };


describe.skipIf(reason !== null)(`the Decode view on a detector decode${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let workDir: string;
  let runId: string;
  let sliceRunId: string;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'kde-e2e-decode-'));
    const runsDir = join(workDir, 'runs');
    await runCli(['decode', '--data', 'preset:place', '--model', 'detector', '--backend', 'wasm', '--out', join(workDir, 'out'), '--runs-dir', runsDir]);
    runId = (await readdir(runsDir)).find((f) => isRunId(f))!;
    const slice = join(workDir, 'slice.npz');
    const makeRecording = fileURLToPath(new URL('../../scripts/make-recording.ts', import.meta.url));
    await promisify(execFile)(process.execPath, ['--import', 'tsx', makeRecording, slice, '--spikes', '4000', '--electrodes', '2', '--duration', '60', '--decode-last', '0.1']);
    await runCli(['decode', '--data', slice, '--model', 'none', '--rows-per-chunk', '500', '--out', join(workDir, 'slice-out'), '--runs-dir', runsDir]);
    sliceRunId = (await readdir(runsDir)).find((f) => isRunId(f) && f !== runId)!;
    web = await startWebSession({ runsDir });
  }, 300_000);

  afterAll(async () => {
    await web?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('shows the posterior heatmap, the state track and the non-local periods', async () => {
    const { page, problems } = web.session;
    // the route's name from before it took its view's: a link from then opens the Decode view
    await page.goto(`${web.serve.url}#/likelihood?run=${runId}`);
    await expect.poll(async () => (await page.locator('[data-testid="nav-decode"][aria-current="page"]').textContent())?.trim(), SOON).toBe('Decode');
    const drawn = async (testid: string, colours: number) => {
      const s = await canvasStats(page, testid);
      return s.distinctColors > colours && s.paintedFraction > 0.05 ? 'drawn' : `${s.distinctColors} colours, ${(s.paintedFraction * 100).toFixed(0)} % painted`;
    };
    await expect.poll(() => drawn('posterior-heatmap', 20), SOON).toBe('drawn');
    await expect.poll(() => drawn('state-track', 4), SOON).toBe('drawn');
    expect(await page.getByTestId('decode-source-acausal').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('posterior-summary').textContent()).toContain('detector');
    await expect.poll(() => page.getByTestId('period-row').count(), SOON).toBeGreaterThan(0);
    await web.session.screenshot('decode-view');
    expect(problems).toEqual([]);
  });

  it('a period row zooms both charts to it; a higher threshold lists fewer periods', async () => {
    const { page, problems } = web.session;
    const before = await page.getByTestId('posterior-heatmap').getAttribute('data-end-row');
    const listed = await page.getByTestId('period-row').count();
    await page.getByTestId('period-row').first().click();
    await expect.poll(() => page.getByTestId('posterior-heatmap').getAttribute('data-end-row'), SOON).not.toBe(before);
    await expect.poll(() => page.getByTestId('posterior-whole').isEnabled(), SOON).toBe(true);
    await page.getByTestId('threshold-input').fill('0.999');
    await page.getByTestId('threshold-input').dispatchEvent('change');
    await expect.poll(async () => (await page.getByTestId('period-row').count()) <= listed, SOON).toBe(true);
    await web.session.screenshot('decode-view-zoomed');
    await screenshotsAtLabSizes(web.session, 'decode-view-zoomed');
    expect(problems).toEqual([]);
  });

  it('switches to the causal posterior and to the likelihood, which stays available', async () => {
    const { page, problems } = web.session;
    await page.getByTestId('threshold-input').fill('0.8');
    await page.getByTestId('threshold-input').dispatchEvent('change');
    await page.getByTestId('decode-source-causal').click();
    await expect.poll(() => page.getByTestId('posterior-summary').textContent(), SOON).toContain('detector: causal posterior');
    // the address says what is shown, so a link or a reload opens the same
    expect(page.url()).toContain('show=causal');
    await page.reload();
    await expect.poll(() => page.getByTestId('decode-source-causal').getAttribute('aria-pressed'), SOON).toBe('true');
    await page.getByTestId('decode-source-likelihood').click();
    await expect.poll(async () => (await canvasStats(page, 'likelihood-heatmap')).distinctColors, SOON).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('says on Results what the whole recording would take, for a decode of its last tenth', async () => {
    const { page, problems } = web.session;
    await page.goto(`${web.serve.url}#/results?run=${sliceRunId}`);
    await expect.poll(() => page.getByTestId('projection').count(), SOON).toBe(1);
    expect(await page.getByTestId('projection').textContent()).toMatch(/The whole recording \([\d,]+ rows, 10\.0× this decode's [\d,]+\) would take about .*: likelihood /);
    expect(problems).toEqual([]);
  });
});
