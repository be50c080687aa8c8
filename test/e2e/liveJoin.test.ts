/**
 * Live state is the run's, not the page's: a second tab that opens a run late draws it from its
 * start, and a run started from the command line on the same runs folder shows in the page the
 * stage, share and time left its terminal line shows (the same reading of the same progress, saved
 * in the run's folder), a share of time rather than of steps. Either page shows the log lines the
 * run wrote before it opened. One serve, one browser, in Debian's
 * Chromium; screenshots under test-artifacts/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunConfig } from '../../src/shared/config';
import type { ProgressInfo, RunLogLine } from '../../src/shared/events';
import { readProgress, timeLeftText } from '../../src/shared/progress';
import { isRunId } from '../../src/shared/runIds';
import type { ServerMessage } from '../../src/shared/wire';
import { REPO_ROOT } from './electronBinary';
import { ARTIFACTS_DIR, chromiumExists, startWebSession } from './harness';
import { settleCharts } from './webModeChecks';

const reason = chromiumExists() ? null : 'no Chromium at /usr/bin/chromium (Debian package "chromium")';
const SOON = { timeout: 15_000, interval: 100 };

describe.skipIf(reason !== null)(`a live run, joined late${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let web: Awaited<ReturnType<typeof startWebSession>>;
  let page: Page;
  let outDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    web = await startWebSession();
    page = web.session.page;
    outDir = await mkdtemp(join(tmpdir(), 'kde-e2e-live-join-'));
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGINT');
    await web?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  const runIds = async (): Promise<string[]> => (await readdir(web.serve.runsDir)).filter(isRunId);

  /** `kde-profiler run` in a process of its own on the serve's runs folder, as a person would start one beside it */
  async function cliRun(args: string[]): Promise<string> {
    const before = new Set(await runIds());
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'kde-profiler.mjs'), 'run', ...args, '--runs-dir', web.serve.runsDir, '--out', join(outDir, String(children.length))], { stdio: 'ignore' });
    children.push(child);
    return expect.poll(async () => (await runIds()).find((id) => !before.has(id)), { timeout: 60_000, interval: 100 }).toBeDefined().then(async () => (await runIds()).find((id) => !before.has(id))!);
  }

  const liveFile = async (id: string): Promise<{ progress?: ProgressInfo; log?: RunLogLine[] } | undefined> => {
    try {
      return JSON.parse(await readFile(join(web.serve.runsDir, id, 'progress.json'), 'utf8')) as { progress?: ProgressInfo; log?: RunLogLine[] };
    } catch {
      return undefined;
    }
  };
  const progressFile = async (id: string): Promise<ProgressInfo | undefined> => (await liveFile(id))?.progress;

  /** the page as a lab sees it on a laptop and on a desktop screen, under test-artifacts/ */
  async function shots(p: Page, name: string): Promise<void> {
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
      await p.setViewportSize({ width, height });
      await settleCharts(p);
      await p.screenshot({ path: join(ARTIFACTS_DIR, `${name}-${width}x${height}.png`) });
    }
  }

  const text = async (testid: string): Promise<string> => ((await page.getByTestId(testid).allTextContents())[0] ?? '').trim();

  /** one call of the serve's API, as its pages make them */
  async function call(method: string, params: unknown[]): Promise<unknown> {
    const ws = new WebSocket(`ws://127.0.0.1:${new URL(web.serve.origin).port}/ws?token=${web.serve.token}`, { origin: web.serve.origin });
    try {
      const answer = await new Promise<ServerMessage>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify({ kind: 'call', id: 1, method, params })));
        ws.on('message', (d) => {
          const m = JSON.parse((d as Buffer).toString('utf8')) as ServerMessage;
          if (m.kind === 'result' && m.id === 1) resolve(m);
        });
        ws.on('error', reject);
      });
      expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true });
      return (answer as { result: unknown }).result;
    } finally {
      ws.close();
    }
  }
  /** a run of the serve's own, started as Run setup starts one */
  const serveRun = async (config: RunConfig): Promise<string> => ((await call('startRun', [config])) as { runId: string }).runId;
  const cancelRun = (id: string) => call('cancelRun', [id]);

  it('a second tab opened well into a run draws its counters from the run\'s start', async () => {
    const id = await serveRun({
      data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
      strategies: ['reference', 'compensated'], repeats: 200, warmup: 1, local: false, saveLikelihood: false, trace: true,
      // more workers than the machine has cores: the run says so in its log as it starts, before the page opens
      workers: 64,
    });
    // well into the run: engine memory has been sampled for seconds before this page opens
    await expect.poll(async () => (await progressFile(id))?.elapsedMs ?? 0, { timeout: 60_000, interval: 200 }).toBeGreaterThan(6_000);
    const late = await web.session.context.newPage();
    try {
      await late.goto(`${web.serve.origin}/#/live?run=${id}`);
      await expect.poll(async () => Number(await late.getByTestId('counter-tracks').getAttribute('data-tracks')), SOON).toBeGreaterThan(0);
      const strip = late.getByTestId('counter-track').first().locator('canvas');
      const box = (await strip.boundingBox())!;
      // a tenth of the way in: seconds before the page opened, every counter had samples there
      await strip.hover({ position: { x: box.width * 0.1, y: box.height / 2 } });
      await expect.poll(async () => (await late.getByTestId('counter-value').allTextContents()).filter((t) => /\d/.test(t)).length, SOON).toBeGreaterThan(0);
      // still live: a finished run's counters come from its file, whole, and would prove nothing
      expect(((await late.getByTestId('run-status').textContent()) ?? '').trim()).toBe('running');
      // the log the run wrote before the page opened
      await expect.poll(async () => (await late.getByTestId('run-log').allTextContents()).join(' '), SOON).toMatch(/--workers 64: .*so the run uses \d+ worker/);
      await shots(late, 'live-joined-late');
    } finally {
      await late.close();
    }
    await cancelRun(id);
  }, 180_000);

  it('a run started from the command line shows the stage, share of its time and time left its terminal shows', async () => {
    const id = await cliRun(['--data', 'preset:medium', '--strategy', 'reference,compensated,logsumexp', '--repeats', 'auto', '--max-time', '8', '--workers', '64']);
    // the page opens once the run has logged (its terminal printed the line): it shows the line too
    await expect.poll(async () => (await liveFile(id))?.log?.length ?? 0, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    await page.goto(`${web.serve.origin}/#/live?run=${id}`);
    await expect.poll(async () => (await page.getByTestId('run-log').allTextContents()).join(' '), SOON).toMatch(/--workers 64: /);
    await expect.poll(() => text('run-status'), SOON).toBe('running');
    // the page and the terminal read the same progress (the one the run saves for other processes' pages)
    let matched: { file: ProgressInfo; share: string; label: string; eta: string } | undefined;
    await expect.poll(async () => {
      const file = await progressFile(id);
      const shown = { share: await text('progress-percent'), label: await text('progress-label'), eta: await text('progress-eta') };
      const again = await progressFile(id);
      if (!file || file.basis !== 'time' || JSON.stringify(file) !== JSON.stringify(again)) return false;
      const reading = readProgress(file);
      if (shown.share !== reading.share || shown.label !== file.label || shown.eta !== timeLeftText(reading.etaMs)) return false;
      matched = { file, ...shown };
      return true;
    }, { timeout: 90_000, interval: 150 }).toBe(true);
    const { file } = matched!;
    expect(matched!.label).toMatch(/^(reference|compensated|logsumexp) · /);
    expect(matched!.eta).toMatch(/left$/);
    // a share of time: what is behind it against what is behind and ahead of it
    expect(Math.abs(file.fraction - file.elapsedMs / (file.elapsedMs + file.etaMs!))).toBeLessThan(0.06);
    await shots(page, 'live-cli-run');
  }, 180_000);
});
