/**
 * Fault: hostile or careless pages holding the token, against web mode's real server and service
 * while a run records: a 60 MB message of `[{},{},…]` (once 3.3 GB of the server's memory), many
 * messages just under the cap at once, and more pages than the server takes. Each oversized
 * message closes its page (1009), each malformed one gets one error answer, the server's memory
 * stays bounded, and the run, the listing and the traces come through sound.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CLIENT_MESSAGE_BYTES } from '../../src/shared/wire';
import { startServer, type RunningServer } from '../../src/main/server';
import { MAX_SESSIONS } from '../../src/main/server/startServer';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { presetRun, scratchFolder } from './faultKit';
import { answerTo, openPage as openPageOf, page as pageOf, type Page } from './faultKitPages';
import { expectInvariants, notesFor } from './invariants';

/** messages just under the cap, sent at once from as many pages */
const CONCURRENT_JUNK = 8;
/** the server's memory may grow by this much under the attack: 8 messages under the cap, parsed once, took about 380 MB here; one 60 MB message once took 3.3 GB */
const MAX_RSS_GROWTH_BYTES = 768 * 1024 * 1024;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
let server: RunningServer;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-ws-');
  const staticDir = join(folder.path, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  service = createProfilerService({ runsDir: join(folder.path, 'runs') });
  server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir });
});
afterEach(async () => {
  await server.close();
  await service.close();
  await folder.remove();
});

const PAGE_OPTIONS = { maxPayload: 256 * 1024 * 1024 };
const openPage = () => openPageOf(server, PAGE_OPTIONS);
const page = () => pageOf(server, PAGE_OPTIONS);

/** a call's message whose params are `count` empty objects: the costliest JSON per byte to hold parsed */
function emptyObjects(id: number, count: number): string {
  return `{"kind":"call","id":${id},"method":"getInfo","params":[${'{},'.repeat(count - 1)}{}]}`;
}

describe('fault: oversized and concurrent WebSocket messages', () => {
  it('closes oversized pages, answers junk once, refuses pages beyond the cap, keeps its memory and its run', async (ctx) => {
    const { runId } = await service.startRun(presetRun('small', { repeats: 3 }, ['reference', 'compensated']));
    // made before the baseline: the pages live in this process too, and their messages are not the server's memory
    const hugeMessage = Buffer.from(emptyObjects(1, 20_000_000));
    const underCap = Buffer.from(emptyObjects(2, Math.floor((MAX_CLIENT_MESSAGE_BYTES - 100) / 3)));
    expect(underCap.length).toBeLessThan(MAX_CLIENT_MESSAGE_BYTES);
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    const pages: Page[] = [];
    try {
      const huge = await page();
      const junk = await Promise.all(Array.from({ length: CONCURRENT_JUNK }, () => page()));
      pages.push(huge, ...junk);
      // about 60 MB: far over the cap, read no further than the cap
      huge.ws.send(hugeMessage, { binary: false });
      for (const p of junk) p.ws.send(underCap, { binary: false });
      expect(await huge.closed).toBe(1009);
      for (const p of junk) expect(await answerTo(p, 2, 30_000)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT' } });
      for (const p of junk) expect(p.answers.filter((a) => a.kind === 'result' && a.id === 2)).toHaveLength(1);

      // more pages than the server takes: the rest are refused, not queued
      const crowd = await Promise.all(Array.from({ length: MAX_SESSIONS }, () => openPage()));
      for (const p of crowd) if (typeof p !== 'number') pages.push(p);
      expect(crowd.filter((p) => p === 503).length).toBeGreaterThanOrEqual(CONCURRENT_JUNK);
      const leaving = pages.splice(1);
      for (const p of leaving) p.ws.close();
      await Promise.all(leaving.map((p) => p.closed));

      // the server counts a page gone once its socket closed on its side too
      let fresh: Page | number = 503;
      for (let i = 0; i < 100 && fresh === 503; i++) {
        fresh = await openPage();
        if (fresh === 503) await new Promise((r) => setTimeout(r, 10));
      }
      if (typeof fresh === 'number') throw new Error(`the server refused a page after the crowd left: ${fresh}`);
      pages.push(fresh);
      fresh.ws.send(JSON.stringify({ kind: 'call', id: 3, method: 'listRuns', params: [] }));
      expect(await answerTo(fresh, 3)).toMatchObject({ ok: true, result: [expect.objectContaining({ id: runId })] });
      expect(JSON.stringify(fresh.answers)).not.toMatch(/"stack"/);
    } finally {
      clearInterval(sampler);
      for (const p of pages) p.ws.terminate();
    }
    expect(peakRss - baseRss).toBeLessThan(MAX_RSS_GROWTH_BYTES);

    expect((await service.whenFinished(runId)).status).toBe('completed');
    await expectInvariants(service, service.runsDir, { expected: { [runId]: 'completed' }, traced: [runId], notes: notesFor(ctx) });
  });
});
