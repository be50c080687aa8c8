/**
 * One page's WebSocket: each message is parsed with the shared wire parser, calls go to the
 * service after the shared argument check, answers and errors go back per shared/wire.ts, and the
 * connection's subscriptions end with it.
 */
import type { RawData, WebSocket } from 'ws';
import type { ProfilerApi } from '../../shared/api';
import { AppError, isUnexpected, pageError } from '../../shared/errors';
import { MAX_MESSAGE_BYTES, readClientMessage, type ServerMessage } from '../../shared/wire';
import { callApi } from '../../shared/apiArgs';
import { checkSubscriptionKey, checkSubscriptionRoom } from '../../shared/runIds';

/** A page that stops reading (a frozen tab) is dropped before its backlog eats the server's memory. */
const MAX_BUFFERED_BYTES = 2 * MAX_MESSAGE_BYTES;
const OPEN = 1;

/** A text frame's payload: one Buffer as ws delivers by default, or the other shapes RawData allows. */
function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}

/**
 * JSON of payloads already serialised for another page: with many pages on one live run, the
 * service hands every page the same event object and the same memoised timeline answer, and
 * stringifying each once per page was the server's largest cost (20 pages: 3.0 of 9.7 s busy).
 * Keyed by the object itself, so an entry lives as long as the payload does. Only payloads that
 * cannot change are kept: events (never changed once emitted) and answers the service froze.
 */
const payloadJson = new WeakMap<object, string>();

function jsonOf(value: unknown, immutable: boolean): string {
  if (typeof value !== 'object' || value === null || !immutable) return JSON.stringify(value ?? null);
  let text = payloadJson.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    payloadJson.set(value, text);
  }
  return text;
}

/** The same text JSON.stringify(message) gives, with the payload serialised once for all pages. */
export function messageText(message: ServerMessage): string {
  if (message.kind === 'event') return `{"kind":"event","runId":${JSON.stringify(message.runId)},"event":${jsonOf(message.event, true)}}`;
  if (message.kind === 'result' && message.ok) return `{"kind":"result","id":${JSON.stringify(message.id)},"ok":true,"result":${jsonOf(message.result, Object.isFrozen(message.result))}}`;
  return JSON.stringify(message);
}

/** Where the server reports what a page is not told (an unexpected error's stack, a page dropped). */
export const logToStderr = (line: string): void => {
  process.stderr.write(`kde-profiler serve: ${line}\n`);
};

/** The page's form of an error; an unexpected one's stack goes to the log instead. */
function answerError(e: unknown, what: string, log: (line: string) => void): ReturnType<typeof pageError> {
  if (isUnexpected(e)) log(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return pageError(e);
}

/** Drops a page that holds back more than MAX_BUFFERED_BYTES, saying so; true when it did. */
function droppedFarBehind(ws: WebSocket, log: (line: string) => void): boolean {
  if (ws.bufferedAmount <= MAX_BUFFERED_BYTES) return false;
  log(`dropped a page that stopped reading: ${Math.round(ws.bufferedAmount / 1e6)} MB were queued for it, more than the ${Math.round(MAX_BUFFERED_BYTES / 1e6)} MB a page may hold back; its place is free for another page.`);
  ws.terminate();
  return true;
}

export function attachSession(ws: WebSocket, api: ProfilerApi, log: (line: string) => void = logToStderr): void {
  const subscriptions = new Map<string, () => void>();

  const send = (message: ServerMessage): void => {
    if (ws.readyState !== OPEN) return;
    let text = messageText(message);
    if (text.length > MAX_MESSAGE_BYTES && message.kind === 'result') {
      const error = new AppError('INTERNAL', `the answer is ${Math.round(text.length / 1e6)} MB, more than the ${MAX_MESSAGE_BYTES / 1e6} MB a message may carry; ask for a smaller view.`);
      text = JSON.stringify({ kind: 'result', id: message.id, ok: false, error: error.toJSON() } satisfies ServerMessage);
    }
    if (droppedFarBehind(ws, log)) return;
    ws.send(text);
  };

  /** `work` may return a value or a promise of one: both answer the call. */
  const answer = (id: number, work: () => unknown, what: string): void => {
    Promise.resolve()
      .then(work)
      .then(
        (result) => send({ kind: 'result', id, ok: true, result: result ?? null }),
        (e: unknown) => send({ kind: 'result', id, ok: false, error: answerError(e, what, log) }),
      );
  };

  ws.on('message', (data: RawData, isBinary: boolean) => {
    const reading = isBinary ? { ok: false as const, id: null } : readClientMessage(textOf(data));
    if (!reading.ok) {
      if (reading.id !== null) {
        send({ kind: 'result', id: reading.id, ok: false, error: new AppError('BAD_ARGUMENT', 'malformed request: expected a call, subscribe or unsubscribe message as in shared/wire.ts').toJSON() });
      }
      return;
    }
    const message = reading.message;
    switch (message.kind) {
      case 'call':
        answer(message.id, () => callApi(api, message.method, message.params), message.method);
        return;
      case 'subscribe':
        answer(message.id, () => {
          const key = checkSubscriptionKey(message.runId);
          if (subscriptions.has(key)) return null;
          checkSubscriptionRoom(subscriptions.size);
          subscriptions.set(key, api.subscribe(key, (event) => send({ kind: 'event', runId: key, event })));
          return null;
        }, 'subscribe');
        return;
      case 'unsubscribe':
        answer(message.id, () => {
          subscriptions.get(message.runId)?.();
          subscriptions.delete(message.runId);
          return null;
        }, 'unsubscribe');
        return;
    }
  });

  ws.on('close', () => {
    for (const unsubscribe of subscriptions.values()) unsubscribe();
    subscriptions.clear();
  });
  ws.on('error', () => ws.terminate());
}
