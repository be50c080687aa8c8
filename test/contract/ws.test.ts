/** The contract over web mode: WebSocket client ↔ real server ↔ real service and engine. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startServer } from '../../src/main/server';
import { createProfilerService } from '../../src/main/service';
import { createWsClient, type WebSocketConstructor } from '../../src/renderer/src/api';
import { describeApiContract } from './apiContract';

describeApiContract('WebSocket', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kde-contract-ws-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html>');
  const service = createProfilerService({ runsDir: join(dir, 'runs') });
  const server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir: join(dir, 'static') });
  const origin = `http://127.0.0.1:${server.port}`;
  // what a browser does by itself: send the page's origin with the upgrade
  class PageWebSocket extends WebSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  }
  const api = createWsClient({ url: `ws://127.0.0.1:${server.port}/ws?token=${server.token}`, WebSocketImpl: PageWebSocket as unknown as WebSocketConstructor });
  return {
    api,
    runsDir: join(dir, 'runs'),
    async close() {
      api.close();
      await server.close();
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
