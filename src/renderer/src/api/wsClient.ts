/**
 * ProfilerApi over WebSocket (web mode), per shared/wire.ts: every call carries an id that the
 * answer repeats; calls made while the link is down wait for it (up to their timeout); a call in
 * flight when the link drops fails at once, since it may or may not have run; subscriptions are
 * renewed after every reconnect. Errors come back as AppError.
 */
import type { ApiMethod, ProfilerApi } from '../../../shared/api';
import { AppError, deserializeError } from '../../../shared/errors';
import { MAX_CLIENT_MESSAGE_BYTES, parseServerMessage, type ClientMessage } from '../../../shared/wire';
import { callMethods } from '../../../shared/apiCalls';
import { RunListeners } from '../../../shared/runListeners';
import { PendingCalls } from './pendingCalls';
import { ReconnectingSocket, type ConnectionState, type WebSocketConstructor } from './socket';

export interface WsClientOptions {
  /** ws://127.0.0.1:PORT/ws?token=… */
  url: string;
  /** defaults to the global WebSocket */
  WebSocketImpl?: WebSocketConstructor;
  /** how long a call may wait for its answer, link downtime included */
  callTimeoutMs?: number;
  /** longer limit for the calls that read or write whole files */
  slowCallTimeoutMs?: number;
  reconnectInitialDelayMs?: number;
  reconnectMaxDelayMs?: number;
  /** connection attempts that never opened before waiting calls are failed */
  maxRefusedAttempts?: number;
}

export interface WsApi extends ProfilerApi {
  readonly connectionState: ConnectionState;
  onConnectionState(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

const SLOW_METHODS = new Set<ApiMethod>(['inspectData', 'exportRun', 'compareRuns', 'getLikelihood', 'scanData', 'exportDataAsNpz']);

export function createWsClient(options: WsClientOptions): WsApi {
  const WebSocketImpl = options.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!WebSocketImpl) throw new AppError('INTERNAL', 'this environment has no WebSocket: web mode needs a browser');
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  const slowCallTimeoutMs = options.slowCallTimeoutMs ?? 600_000;
  const maxRefused = options.maxRefusedAttempts ?? 3;
  const host = hostOf(options.url);
  const pending = new PendingCalls(host);
  // the socket exists by the time a listener is added: these run only from subscribe
  const subscriptions = new RunListeners(
    (runId) => socket.isOpen && sendSubscription('subscribe', runId),
    (runId) => socket.isOpen && sendSubscription('unsubscribe', runId),
  );
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let refused = 0;

  const sendSubscription = (kind: 'subscribe' | 'unsubscribe', runId: string) => {
    const message: ClientMessage = { kind, id: nextId++, runId };
    request(message, kind).catch((e: unknown) => {
      // a lost link is renewed by the next onOpen; only the server's refusal is worth a word
      const code = e instanceof AppError ? e.code : 'INTERNAL';
      if (kind === 'subscribe' && code !== 'IO' && code !== 'CANCELLED') console.warn(`subscription to run ${runId} failed: ${(e as Error).message}`);
    });
  };

  const socket = new ReconnectingSocket({
    url: options.url,
    WebSocketImpl,
    initialDelayMs: options.reconnectInitialDelayMs ?? 250,
    maxDelayMs: options.reconnectMaxDelayMs ?? 5_000,
    onOpen() {
      refused = 0;
      for (const runId of subscriptions.keys()) sendSubscription('subscribe', runId);
      pending.sendUnsent((text) => socket.send(text));
    },
    onText(text) {
      const message = parseServerMessage(text);
      if (!message) return;
      if (message.kind === 'event') {
        subscriptions.deliver(message.runId, message.event);
        return;
      }
      const p = pending.settle(message.id);
      if (!p) return;
      if (message.ok) p.resolve(message.result);
      else p.reject(deserializeError(message.error));
    },
    onDown(everOpened) {
      pending.fail('sent', (method) => new AppError('IO', `the connection to the profiler server at ${host} was lost during ${method}; it may or may not have completed: check, then retry.`));
      if (everOpened) return;
      refused += 1;
      if (refused >= maxRefused) {
        pending.fail('all', (method) => new AppError('IO', `cannot reach the profiler server at ${host} for ${method} (${refused} attempts): check that \`kde-profiler serve\` is still running; if it was restarted, its token changed: open the new link it printed.`));
      }
    },
    onState(next) {
      state = next;
      for (const l of [...stateListeners]) l(next);
    },
  });

  function request(message: ClientMessage, method: string, timeoutMs = callTimeoutMs): Promise<unknown> {
    const text = JSON.stringify(message);
    if (text.length > MAX_CLIENT_MESSAGE_BYTES) {
      return Promise.reject(new AppError('BAD_ARGUMENT', `${method}: the request is larger than the ${MAX_CLIENT_MESSAGE_BYTES / 1024 / 1024} MB a request may carry.`));
    }
    return pending.wait(message.id, method, text, timeoutMs, (t) => socket.send(t));
  }

  function call<T>(method: ApiMethod, params: unknown[]): Promise<T> {
    const timeoutMs = SLOW_METHODS.has(method) ? slowCallTimeoutMs : callTimeoutMs;
    return request({ kind: 'call', id: nextId++, method, params }, method, timeoutMs) as Promise<T>;
  }

  return {
    ...callMethods(call),
    subscribe: (runId, listener) => subscriptions.add(runId, listener),
    // no native dialog in a browser: the UI offers a path field instead
    pickDataFile: async () => null,
    get connectionState() {
      return state;
    },
    onConnectionState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    close() {
      socket.close();
      pending.fail('all', (method) => new AppError('CANCELLED', `${method} was abandoned: the client was closed.`));
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
