/**
 * The desktop app end to end through Playwright's Electron driver: the window opens on the app
 * page, the renderer has window.profiler and no Node, the API answers through the preload, and
 * the page cannot open windows. Skips where the Electron binary is not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, electronBinary } from './electronBinary';

const exe = electronBinary();
const SKIP_REASON = 'skipped: the Electron binary is not installed (run `npx install-electron` when online)';
if (!exe) console.warn(`test/e2e/electron.test.ts ${SKIP_REASON}`);

describe.skipIf(!exe)(`Electron app${exe ? '' : ` (${SKIP_REASON})`}`, () => {
  let app: ElectronApplication;
  let page: Page;
  let userData: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    expect(built.status).toBe(0);
    userData = await mkdtemp(join(tmpdir(), 'kde-electron-'));
    app = await _electron.launch({
      executablePath: exe!,
      args: [REPO_ROOT],
      env: { ...process.env, KDE_PROFILER_USER_DATA: userData } as Record<string, string>,
    });
    page = await app.firstWindow();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.waitForLoadState('domcontentloaded');
  });

  afterAll(async () => {
    await app?.close();
    if (userData) await rm(userData, { recursive: true, force: true });
  });

  it('shows the app page in a sandboxed renderer without Node', async () => {
    expect(await page.title()).toBe('KDE Profiler');
    expect(page.url()).toMatch(/^file:.*\/out\/renderer\/index\.html/);
    const globals = await page.evaluate(() => ({
      profiler: typeof (window as unknown as { profiler?: unknown }).profiler,
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      ipc: typeof (window as unknown as { ipcRenderer?: unknown }).ipcRenderer,
    }));
    expect(globals).toEqual({ profiler: 'object', require: 'undefined', process: 'undefined', ipc: 'undefined' });
  });

  it('answers ProfilerApi calls through the preload, with error codes intact', async () => {
    const result = await page.evaluate(async () => {
      const api = (window as unknown as { profiler: { getInfo(): Promise<{ version: string }>; getRun(id: string): Promise<unknown> } }).profiler;
      const info = await api.getInfo();
      const error = await api.getRun('20000101-000000-abcdef').catch((e: unknown) => e as { code?: string });
      return { version: info.version, code: (error as { code?: string }).code };
    });
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.code).toBe('NOT_FOUND');
  });

  it('opens no new windows and does not navigate away', async () => {
    const opened = await page.evaluate(() => window.open('https://example.com/') === null);
    expect(opened).toBe(true);
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(app.windows()).toHaveLength(1);
    expect(page.url()).toBe(before);
    expect(consoleErrors).toEqual([]);
  });
});
