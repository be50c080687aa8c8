/**
 * Web-mode end-to-end harness: builds the renderer when needed, starts `kde-profiler serve` on a
 * free port with a throwaway runs folder, and drives Debian's Chromium through playwright-core,
 * collecting every console error, page error and failed request so a test can insist on none.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { newestMtimeMs } from '../../scripts/newestMtime.mjs';
import { REPO_ROOT } from './electronBinary';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts');
const RENDERER_INDEX = join(REPO_ROOT, 'out', 'renderer', 'index.html');

export function rendererEntryExists(): boolean {
  return existsSync(join(REPO_ROOT, 'src', 'renderer', 'src', 'main.ts'));
}

export function chromiumExists(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Why a Chromium test against web mode cannot run here, or null when it can. */
export function webTestSkipReason(): string | null {
  if (!chromiumExists()) return `no ${CHROMIUM_PATH}`;
  return rendererEntryExists() ? null : 'the renderer entry src/renderer/src/main.ts does not exist';
}

/** Builds out/ when the renderer is missing or older than its sources. */
export function ensureRendererBuilt(): void {
  const built = existsSync(RENDERER_INDEX) ? statSync(RENDERER_INDEX).mtimeMs : 0;
  const sources = Math.max(newestMtimeMs(join(REPO_ROOT, 'src', 'renderer')), newestMtimeMs(join(REPO_ROOT, 'src', 'shared')));
  if (built > 0 && built >= sources) return;
  const bin = join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stdout}\n${result.stderr}`);
}

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  runsDir: string;
  /** everything the server wrote so far */
  output(): string;
  /** SIGINT, then waits for a clean exit; resolves with the exit code */
  stop(): Promise<number | null>;
}

/** Starts `kde-profiler serve --port 0` as its own process and waits for the URL it prints. */
export async function startServe(options: { runsDir?: string; staticDir?: string; timeoutMs?: number } = {}): Promise<ServeProcess> {
  const ownRunsDir = options.runsDir === undefined;
  const runsDir = options.runsDir ?? (await mkdtemp(join(tmpdir(), 'kde-e2e-runs-')));
  const args = [join(REPO_ROOT, 'bin', 'kde-profiler.mjs'), 'serve', '--port', '0', '--runs-dir', runsDir];
  if (options.staticDir) args.push('--static-dir', options.staticDir);
  const child: ChildProcess = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kde-profiler serve printed no URL within ${options.timeoutMs ?? 30_000} ms:\n${output}`)), options.timeoutMs ?? 30_000);
    const poll = setInterval(() => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(output);
      if (m) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]!);
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`kde-profiler serve exited with ${code}:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    runsDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const code = await exited;
      if (ownRunsDir) await rm(runsDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** the window sizes a lab's screens have: a laptop's and a desktop monitor's */
export const LAB_VIEWPORTS = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }] as const;

/**
 * Full-page PNGs of the page as it stands at each of LAB_VIEWPORTS, `<name>-<w>x<h>.png` under
 * test-artifacts/, for a look by eye; the page's own size is put back after.
 */
export async function screenshotsAtLabSizes(session: BrowserSession, name: string): Promise<string[]> {
  const before = session.page.viewportSize();
  const paths: string[] = [];
  for (const size of LAB_VIEWPORTS) {
    await session.page.setViewportSize(size);
    // from the top: a full-page shot of a scrolled page draws the sticky sidebar where the scroll left it
    await session.page.evaluate(() => window.scrollTo(0, 0));
    // the charts redraw on resize a frame or two later
    await session.page.waitForTimeout(400);
    paths.push(await session.screenshot(`${name}-${size.width}x${size.height}`));
  }
  if (before) await session.page.setViewportSize(before);
  return paths;
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** console errors, uncaught page errors, failed requests and HTTP errors, in order */
  problems: string[];
  /** saves a full-page PNG under test-artifacts/ and returns its path */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openBrowser(url: string): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return {
    browser,
    context,
    page,
    problems,
    async screenshot(name) {
      await mkdir(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: () => browser.close(),
  };
}

/** serve + browser in one: what most web-mode e2e tests start from. */
export async function startWebSession(options: { runsDir?: string; staticDir?: string } = {}): Promise<{ serve: ServeProcess; session: BrowserSession; close(): Promise<void> }> {
  if (!options.staticDir) ensureRendererBuilt();
  const serve = await startServe(options);
  try {
    const session = await openBrowser(serve.url);
    return {
      serve,
      session,
      async close() {
        await session.close();
        await serve.stop();
      },
    };
  } catch (e) {
    await serve.stop();
    throw e;
  }
}

const CLI = join(REPO_ROOT, 'bin', 'kde-profiler.mjs');

/** `kde-profiler ARGS…` as its own process, for a test's data: resolves when it exits 0, else fails with its stderr. */
export function runCli(args: string[], timeoutMs = 240_000): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { timeout: timeoutMs }, (err, _stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve()));
  });
}
