import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { RunEvent } from '../../../shared/events';
import { parseClientMessage, type ClientMessage } from '../../../shared/wire';
import type { WebSocketLike } from './socket';
import { createWsClient, type WsApi } from './wsClient';

/** An in-memory server side: each `new FakeSocket(url)` is one connection it can accept or refuse. */
class FakeNetwork {
  sockets: FakeSocket[] = [];
  received: ClientMessage[] = [];
  accept = true;
  /** answers calls automatically when set */
  autoAnswer: ((m: ClientMessage) => unknown) | undefined;

  get ctor() {
    return socketClassOn(this);
  }

  get last(): FakeSocket {
    return this.sockets[this.sockets.length - 1]!;
  }
}

/** A WebSocket constructor whose sockets connect to `net`. */
function socketClassOn(net: FakeNetwork) {
  return class extends FakeSocket {
    constructor(url: string) {
      super(url, net);
    }
  };
}

class FakeSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string, private readonly net: FakeNetwork) {
    net.sockets.push(this);
    setTimeout(() => {
      if (net.accept) {
        this.readyState = 1;
        this.onopen?.({});
      } else this.drop();
    }, 1);
  }

  send(data: string): void {
    const m = parseClientMessage(data);
    if (!m) throw new Error(`client sent a malformed message: ${data}`);
    this.net.received.push(m);
    if (this.net.autoAnswer) {
      const result = this.net.autoAnswer(m);
      setTimeout(() => this.push({ kind: 'result', id: m.id, ok: true, result }), 1);
    }
  }

  push(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  close(): void {
    this.drop();
  }

  drop(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({});
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await sleep(2);
  }
}

let client: WsApi | undefined;
afterEach(() => client?.close());

function connect(net: FakeNetwork, extra: Partial<Parameters<typeof createWsClient>[0]> = {}): WsApi {
  client = createWsClient({ url: 'ws://127.0.0.1:9/ws?token=t', WebSocketImpl: net.ctor, reconnectInitialDelayMs: 5, reconnectMaxDelayMs: 20, ...extra });
  return client;
}

describe('createWsClient', () => {
  it('sends calls with distinct ids and resolves each with its own answer', async () => {
    const net = new FakeNetwork();
    net.autoAnswer = (m) => (m.kind === 'call' ? { echo: m.method, params: m.params } : null);
    const api = connect(net);
    const [a, b] = await Promise.all([api.getRun('r1'), api.compareRuns('a', 'b', 5)]);
    expect(a).toEqual({ echo: 'getRun', params: ['r1'] });
    expect(b).toEqual({ echo: 'compareRuns', params: ['a', 'b', 5] });
    const ids = net.received.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('rebuilds errors as AppError with their code', async () => {
    const net = new FakeNetwork();
    const api = connect(net);
    const p = api.getRun('nope');
    await until(() => net.received.length === 1);
    net.last.push({ kind: 'result', id: net.received[0]!.id, ok: false, error: { name: 'AppError', code: 'NOT_FOUND', message: 'no run nope' } });
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('NOT_FOUND');
    expect((e as AppError).message).toBe('no run nope');
  });

  it('fails a call that gets no answer in time with a clear IO error', async () => {
    const net = new FakeNetwork();
    const api = connect(net, { callTimeoutMs: 30 });
    const e = (await api.listRuns().catch((x: unknown) => x)) as AppError;
    expect(e.code).toBe('IO');
    expect(e.message).toMatch(/no answer .* listRuns within/);
  });

  it('fails a call in flight when the link drops, and runs later calls after reconnecting', async () => {
    const net = new FakeNetwork();
    const api = connect(net);
    const inFlight = api.listRuns();
    await until(() => net.received.length === 1);
    net.last.drop();
    expect(((await inFlight.catch((x: unknown) => x)) as AppError).code).toBe('IO');
    net.autoAnswer = () => ['ok'];
    expect(await api.listRuns()).toEqual(['ok']);
    expect(net.sockets.length).toBeGreaterThanOrEqual(2);
  });

  it('queues calls made before the socket opens', async () => {
    const net = new FakeNetwork();
    net.autoAnswer = () => 7;
    const api = connect(net);
    expect(api.connectionState).toBe('connecting');
    expect(await api.getInfo()).toBe(7);
  });

  it('gives up waiting calls after repeated refused connections', async () => {
    const net = new FakeNetwork();
    net.accept = false;
    const api = connect(net, { maxRefusedAttempts: 2 });
    const e = (await api.getInfo().catch((x: unknown) => x)) as AppError;
    expect(e.code).toBe('IO');
    expect(e.message).toMatch(/cannot reach .* open the new link it printed/);
  });

  it('subscribes once per run, delivers events to every listener, and resubscribes after reconnect', async () => {
    const net = new FakeNetwork();
    net.autoAnswer = () => null;
    const api = connect(net);
    const seenA: RunEvent[] = [];
    const seenB: RunEvent[] = [];
    const offA = api.subscribe('run1', (e) => seenA.push(e));
    const offB = api.subscribe('run1', (e) => seenB.push(e));
    await until(() => net.received.some((m) => m.kind === 'subscribe'));
    expect(net.received.filter((m) => m.kind === 'subscribe')).toHaveLength(1);
    const event: RunEvent = { type: 'status', runId: 'run1', status: 'running' };
    net.last.push({ kind: 'event', runId: 'run1', event });
    net.last.push({ kind: 'event', runId: 'other', event: { ...event, runId: 'other' } });
    expect(seenA).toEqual([event]);
    expect(seenB).toEqual([event]);

    net.received = [];
    net.last.drop();
    await until(() => net.received.some((m) => m.kind === 'subscribe' && m.runId === 'run1'));
    net.last.push({ kind: 'event', runId: 'run1', event });
    expect(seenA).toHaveLength(2);

    offA();
    offA();
    expect(net.received.some((m) => m.kind === 'unsubscribe')).toBe(false);
    offB();
    await until(() => net.received.some((m) => m.kind === 'unsubscribe' && m.runId === 'run1'));
    net.last.push({ kind: 'event', runId: 'run1', event });
    expect(seenB).toHaveLength(2);
  });

  it('rejects a malformed subscription at once', () => {
    const api = connect(new FakeNetwork());
    expect(() => api.subscribe('', () => undefined)).toThrow(AppError);
  });

  it('answers pickDataFile with null: there is no native dialog in a browser', async () => {
    expect(await connect(new FakeNetwork()).pickDataFile()).toBeNull();
  });
});
