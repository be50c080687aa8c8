/** The contract over the desktop path: preload api → (fake) contextBridge and IPC → handlers → real service. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSenderCheck, registerIpcHandlers } from '../../src/main/ipc';
import { createProfilerService } from '../../src/main/service';
import { stubService } from '../../src/main/server/testService';
import { createPreloadApi } from '../../src/preload/api';
import { fromBridge } from '../../src/renderer/src/api';
import { API_METHODS, channelOf } from '../../src/shared/api';
import { AppError } from '../../src/shared/errors';
import type { RunEvent } from '../../src/shared/events';
import { describeApiContract } from './apiContract';
import { createFakeIpc, throughContextBridge } from './fakeIpc';

const PAGE = 'file:///app/out/renderer/index.html';
const WINDOW_ID = 1;

function desktop(service: Parameters<typeof registerIpcHandlers>[0]['api'], frameUrl = PAGE, contentsId = WINDOW_ID) {
  const ipc = createFakeIpc();
  const dispose = registerIpcHandlers({
    ipcMain: ipc.ipcMain,
    api: service,
    pickDataFile: async () => '/data/picked.npz',
    isTrustedSender: createSenderCheck({ rendererUrl: PAGE, windowContentsId: () => WINDOW_ID }),
  });
  const renderer = ipc.renderer({ contentsId, frameUrl });
  // the same layers as in the app: preload api, the bridge, the renderer's api/
  const api = fromBridge(throughContextBridge(createPreloadApi(renderer)));
  return { ipc, api, renderer, dispose };
}

describeApiContract('IPC', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kde-contract-ipc-'));
  const service = createProfilerService({ runsDir: join(dir, 'runs') });
  const { api, dispose } = desktop(service);
  return {
    api,
    runsDir: join(dir, 'runs'),
    async close() {
      dispose();
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('IPC transport specifics', () => {
  it('refuses a page that is not the app page, with UNAUTHORIZED', async () => {
    for (const [url, id] of [['file:///tmp/evil.html', WINDOW_ID], [PAGE, 99]] as const) {
      const { api } = desktop(stubService(), url, id);
      const e = await api.listRuns().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('UNAUTHORIZED');
    }
  });

  it('answers pickDataFile from the dialog in main, not from the service', async () => {
    expect(await desktop(stubService()).api.pickDataFile()).toBe('/data/picked.npz');
  });

  it('registers one handler per method plus the two subscription channels, and removes them all', () => {
    const { ipc, dispose } = desktop(stubService());
    const expected = [...API_METHODS.map(channelOf), 'profiler:subscribe', 'profiler:unsubscribe'];
    expect([...ipc.ipcMain.handlers.keys()].sort()).toEqual(expected.sort());
    dispose();
    expect(ipc.ipcMain.handlers.size).toBe(0);
  });

  it('keeps one main-side subscription per run, and ends them when the window goes away', async () => {
    const service = stubService();
    const { api, renderer } = desktop(service);
    const seen: RunEvent[] = [];
    const off1 = api.subscribe('*', (e) => seen.push(e));
    const off2 = api.subscribe('*', (e) => seen.push(e));
    await new Promise((r) => setTimeout(r, 20));
    expect(service.listeners.get('*')?.size).toBe(1);
    service.emit({ type: 'log', runId: '20250101-000000-abcdef', seq: 0, level: 'info', message: 'hi' });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(2);
    off1();
    off2();
    await new Promise((r) => setTimeout(r, 20));
    expect(service.listeners.size).toBe(0);
    api.subscribe('*', () => undefined);
    await new Promise((r) => setTimeout(r, 20));
    expect(service.listeners.size).toBe(1);
    renderer.destroy();
    expect(service.listeners.size).toBe(0);
  });

  it('hands the page a run event only once it passed the check, as the WebSocket client does', async () => {
    const service = stubService();
    const { api } = desktop(service);
    const seen: RunEvent[] = [];
    api.subscribe('*', (e) => seen.push(e));
    await new Promise((r) => setTimeout(r, 20));
    const notice: RunEvent = { type: 'timeline', runId: '20250101-000000-abcdef', latestUs: 5, changed: [], lanesChanged: true, counters: [] };
    service.emit({ type: 'trace', runId: '20250101-000000-abcdef', records: [] } as unknown as RunEvent);
    service.emit({ ...notice, counters: [{ proc: 'engine', name: 'x', key: 'y', points: [[0, Number.NaN]] }] });
    service.emit(notice);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([notice]);
  });

  it('an error crosses once: the preload rejects with the wire form, which contextBridge copies whole', async () => {
    const ipc = createFakeIpc();
    registerIpcHandlers({ ipcMain: ipc.ipcMain, api: stubService(), pickDataFile: async () => null, isTrustedSender: () => true });
    const preload = createPreloadApi(ipc.renderer({ contentsId: 1, frameUrl: PAGE }));
    const raw = await preload.getRun('20250101-000000-abcdef').catch((x: unknown) => x);
    // not an Error: the bridge would strip an Error down to its message
    expect(raw).not.toBeInstanceOf(Error);
    expect(raw).toMatchObject({ name: 'AppError', code: 'NOT_FOUND' });
    const e = (await fromBridge(throughContextBridge(preload)).getRun('20250101-000000-abcdef').catch((x: unknown) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('NOT_FOUND');
  });
});
