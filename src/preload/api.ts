/**
 * ProfilerApi on top of ipcRenderer.invoke with fixed channel names, for the preload to expose.
 * It takes an ipcRenderer-like object (tests hand in a fake), unwraps the main side's IpcResult
 * envelopes, and multiplexes run events from EVENT_CHANNEL onto the page's listeners: one
 * main-side subscription per run id however many listeners the page adds.
 *
 * Errors cross once: a failed call rejects with main's SerializedError as it arrived (contextBridge
 * copies a plain object whole but strips an Error to its message), and the renderer's api/ turns
 * it into an AppError. Nothing here rebuilds or re-serializes it.
 */
import { EVENT_CHANNEL, channelOf, type ApiMethod, type ProfilerApi } from '../shared/api';
import { AppError, deserializeError, serializeError, type SerializedError } from '../shared/errors';
import { callMethods } from '../shared/apiCalls';
import { RunListeners } from '../shared/runListeners';
import { readRunEvent } from '../shared/events';
import { MENU_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, isMenuCommand, type MenuCommand } from '../shared/ipcChannels';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The result of an IpcResult envelope, or its error in wire form for the page to rebuild. */
function unwrap(raw: unknown): Promise<unknown> {
  if (typeof raw === 'object' && raw !== null && 'ok' in raw) {
    const r = raw as { ok: unknown; result?: unknown; error?: unknown };
    if (r.ok === true) return Promise.resolve(r.result);
    if (r.ok === false && typeof r.error === 'object' && r.error !== null) return Promise.reject(r.error as SerializedError);
  }
  return Promise.reject(serializeError(new AppError('INTERNAL', 'malformed answer from the main process')));
}

/** ProfilerApi plus the one desktop extra: the File menu's commands, which only the page can act on. */
export interface PreloadApi extends ProfilerApi {
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}

export function createPreloadApi(ipc: IpcRendererLike): PreloadApi {
  // an invoke that fails without an envelope (the channel gone) rejects in wire form too
  const call = <T>(method: ApiMethod, args: unknown[]): Promise<T> =>
    ipc.invoke(channelOf(method), ...args).then(unwrap, (e: unknown) => Promise.reject(serializeError(e))) as Promise<T>;
  const menuListeners = new Set<(command: MenuCommand) => void>();

  ipc.on(MENU_CHANNEL, (_event, command) => {
    if (!isMenuCommand(command)) return;
    for (const listener of [...menuListeners]) listener(command);
  });

  const changeSubscription = (channel: string, key: string) => {
    ipc.invoke(channel, key).then(unwrap).catch((e: unknown) => console.warn(`${channel} ${key}: ${deserializeError(e).message}`));
  };
  const listeners = new RunListeners(
    (key) => changeSubscription(SUBSCRIBE_CHANNEL, key),
    (key) => changeSubscription(UNSUBSCRIBE_CHANNEL, key),
  );

  ipc.on(EVENT_CHANNEL, (_event, key, raw) => {
    // what main sends is checked once here, as the WebSocket's client checks what the server sends
    const runEvent = readRunEvent(raw);
    if (typeof key === 'string' && runEvent) listeners.deliver(key, runEvent);
  });

  return {
    ...callMethods(call),
    onMenuCommand(listener) {
      if (typeof listener !== 'function') throw new AppError('BAD_ARGUMENT', 'onMenuCommand: expected a listener function', { key: 'listener' });
      const entry = (command: MenuCommand) => listener(command);
      menuListeners.add(entry);
      return () => void menuListeners.delete(entry);
    },
    subscribe: (runId, listener) => listeners.add(runId, listener),
  };
}
