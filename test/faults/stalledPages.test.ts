/**
 * Fault: pages that stop reading, against web mode's real server. Every place but one is taken by
 * a page whose socket is paused (a frozen tab: it neither reads nor answers pings), so a new page
 * is refused with 503; once the silence bound has passed the stalled pages are dropped, each with a
 * log line saying why, and a new page gets in, while the one page that kept reading stays. And a
 * page that answers pings but lets what the server sends it pile up is dropped once its backlog
 * has stayed large for the bound. The bounds are shortened here through the server's options.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type PageLivenessOptions, type RunningServer } from '../../src/main/server';
import { MAX_SESSIONS } from '../../src/main/server/startServer';
import { stubService, type StubService } from '../../src/main/server/testService';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { scratchFolder, waitFor } from './faultKit';
import { answerTo, openPage as openPageOf, page as pageOf, type Page } from './faultKitPages';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let staticDir: string;
let server: RunningServer | undefined;
let service: ProfilerService | undefined;
const logs: string[] = [];
const sockets: WebSocket[] = [];

beforeEach(async () => {
  folder = await scratchFolder('kde-fault-stalled-');
  staticDir = join(folder.path, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  logs.length = 0;
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server?.close();
  await service?.close();
  server = undefined;
  service = undefined;
  await folder.remove();
});

async function serve(api: Parameters<typeof startServer>[0]['service'], liveness: Partial<PageLivenessOptions>): Promise<RunningServer> {
  server = await startServer({ service: api, port: 0, host: '127.0.0.1', staticDir, liveness, log: (line) => logs.push(line) });
  return server;
}

const openPage = (s: RunningServer) => openPageOf(s, { keep: sockets });
const page = (s: RunningServer) => pageOf(s, { keep: sockets });

/** a frozen tab: its socket is no longer read, so it answers no ping and takes in nothing */
function stall(p: Page): void {
  (p.ws as unknown as { _socket: Socket })._socket.pause();
}

describe('fault: pages that stop reading', () => {
  it('drops pages that answer no ping, so a new page gets in after the bound, and keeps the one that reads', async () => {
    service = createProfilerService({ runsDir: join(folder.path, 'runs') });
    const silentLimitMs = 400;
    const s = await serve(service, { pingIntervalMs: 50, silentLimitMs });
    const reading = await page(s);
    const stalled = await Promise.all(Array.from({ length: MAX_SESSIONS - 1 }, () => page(s)));
    for (const p of stalled) stall(p);
    const stalledAt = performance.now();

    // every place is taken: a new page is refused, not queued
    expect(await openPage(s)).toBe(503);
    const fresh = await waitFor('a new page to be let in', async () => {
      const p = await openPage(s);
      return typeof p === 'number' ? undefined : p;
    }, 5_000);
    expect(performance.now() - stalledAt).toBeGreaterThanOrEqual(silentLimitMs - 50);

    fresh.ws.send(JSON.stringify({ kind: 'call', id: 1, method: 'listRuns', params: [] }));
    expect(await answerTo(fresh, 1)).toMatchObject({ ok: true, result: [] });
    reading.ws.send(JSON.stringify({ kind: 'call', id: 2, method: 'listRuns', params: [] }));
    expect(await answerTo(reading, 2)).toMatchObject({ ok: true });
    expect(reading.ws.readyState).toBe(WebSocket.OPEN);

    await waitFor('every stalled page to be dropped', () => (logs.length >= MAX_SESSIONS - 1 ? true : undefined), 5_000);
    expect(logs.filter((l) => /^dropped a page that did not answer a ping for [\d.]+ s \(the limit is 0\.4 s\); its place is free/.test(l))).toHaveLength(MAX_SESSIONS - 1);
  });

  it('drops a page whose backlog stays above the bound without shrinking, and not one that reads it', async () => {
    const stub: StubService = stubService();
    const s = await serve(stub, { pingIntervalMs: 50, silentLimitMs: 60_000, backlogLimitBytes: 256 * 1024, backlogLimitMs: 300 });
    const [stuck, reading] = [await page(s), await page(s)];
    for (const [p, id] of [[stuck, 1], [reading, 2]] as const) {
      p.ws.send(JSON.stringify({ kind: 'subscribe', id, runId: '*' }));
      await answerTo(p, id);
    }
    stall(stuck);
    // about 25 MB of log lines: more than the kernel's socket buffers hold, so the rest waits in the server
    const message = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 400; i++) stub.emit({ type: 'log', runId: '20250101-000000-abcdef', seq: i, level: 'info', message });

    // the paused page cannot see its socket close; the server's word for it is the log line
    await waitFor('the stuck page to be dropped', () => (logs.length > 0 ? true : undefined), 5_000);
    expect(logs).toEqual([expect.stringMatching(/^dropped a page that stopped reading: [\d.]+ MB queued for it has not shrunk for [\d.]+ s \(the limits are 0\.3 MB and 0\.3 s\)/)]);
    await waitFor('the reading page to get every line', () => (reading.answers.filter((a) => a.kind === 'event').length === 400 ? true : undefined), 10_000);
    expect(reading.ws.readyState).toBe(WebSocket.OPEN);
  });
});
