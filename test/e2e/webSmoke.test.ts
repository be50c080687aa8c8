/**
 * Web mode smoke test: `kde-profiler serve` in a temp runs folder, the page in Chromium loads,
 * talks to the server over the WebSocket, and logs no errors. Skips until the renderer entry
 * exists, or where Chromium is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebSession, webTestSkipReason } from './harness';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/webSmoke.test.ts skipped: ${reason}`);

describe.skipIf(reason !== null)(`web mode in Chromium${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    web = await startWebSession();
  }, 180_000);

  afterAll(async () => {
    if (!web) return;
    await web.close();
  });

  it('loads the page with its CSP and no console errors, and the WebSocket answers', async () => {
    const { page, problems } = web.session;
    expect(await page.title()).toBe('KDE Profiler');
    await page.waitForLoadState('networkidle');
    // the page's own origin may open its WebSocket (CSP connect-src 'self' covers ws: of the same host)
    const info = await page.evaluate(async () => {
      // the page moved its token from the address bar into the origin's localStorage
      const token = localStorage.getItem(`kde-profiler-token:${location.port}`);
      const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
      return new Promise<string>((resolve) => {
        ws.onopen = () => ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'listPresets', params: [] }));
        ws.onmessage = (e) => resolve(String(e.data));
        ws.onerror = () => resolve('error');
      });
    });
    expect(JSON.parse(info)).toMatchObject({ kind: 'result', id: 1, ok: true });
    await web.session.screenshot('web-smoke');
    expect(problems).toEqual([]);
  });

  it('serves the page (no data in it) without the token, and sets no cookie', async () => {
    const res = await fetch(`${web.serve.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});
