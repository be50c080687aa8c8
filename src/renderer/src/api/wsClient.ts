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

const SLOW_METHODS = new Set<ApiMethod>(['inspectData', 'exportRun', 'compareRuns', 'getLikelihood', 'getPosterior', 'scanData', 'exportDataAsNpz']);

export function createWsClient(options: WsClientOptions): WsApi {
  const WebSocketImpl = webSocketOf(options);
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
  const connection = new ConnectionStates();
  let nextId = 1;
  let refused = 0;

  const sendSubscription = (kind: 'subscribe' | 'unsubscribe', runId: string) => {
    const message: ClientMessage = { kind, id: nextId++, runId };
    request(message, kind).catch((e: unknown) => warnOfRefusedSubscription(kind, runId, e));
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
    onText: (text) => deliverServerText(text, pending, subscriptions),
    onDown(everOpened) {
      if (!everOpened) refused += 1;
      failDroppedCalls(pending, host, !everOpened && refused >= maxRefused ? refused : null);
    },
    onState: (next) => connection.set(next),
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
      return connection.state;
    },
    onConnectionState: (listener) => connection.on(listener),
    close() {
      socket.close();
      pending.fail('all', (method) => new AppError('CANCELLED', `${method} was abandoned: the client was closed.`));
    },
  };
}

/**
 * The link went down: the calls already sent fail (they may or may not have run); after
 * `refusedAttempts` connection attempts that never opened, every waiting call fails too.
 */
function failDroppedCalls(pending: PendingCalls, host: string, refusedAttempts: number | null): void {
  pending.fail('sent', (method) => new AppError('IO', `the connection to the profiler server at ${host} was lost during ${method}; it may or may not have completed: check, then retry.`));
  if (refusedAttempts === null) return;
  pending.fail('all', (method) => new AppError('IO', `cannot reach the profiler server at ${host} for ${method} (${refusedAttempts} attempts): check that \`kde-profiler serve\` is still running; if it was restarted, its token changed: open the new link it printed.`));
}

function webSocketOf(options: WsClientOptions): WebSocketConstructor {
  const WebSocketImpl = options.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!WebSocketImpl) throw new AppError('INTERNAL', 'this environment has no WebSocket: web mode needs a browser');
  return WebSocketImpl;
}

/** The link's state and who listens to it. */
class ConnectionStates {
  state: ConnectionState = 'connecting';
  private readonly listeners = new Set<(state: ConnectionState) => void>();

  set(next: ConnectionState): void {
    this.state = next;
    for (const l of [...this.listeners]) l(next);
  }

  on(listener: (state: ConnectionState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

/** A server message: an event goes to the run's listeners, an answer to the call that waits for it. */
function deliverServerText(text: string, pending: PendingCalls, subscriptions: RunListeners): void {
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
}

/** A lost link is renewed by the next open; only the server's refusal of a subscription is worth a word. */
function warnOfRefusedSubscription(kind: 'subscribe' | 'unsubscribe', runId: string, e: unknown): void {
  const code = e instanceof AppError ? e.code : 'INTERNAL';
  if (kind === 'subscribe' && code !== 'IO' && code !== 'CANCELLED') console.warn(`subscription to run ${runId} failed: ${(e as Error).message}`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
