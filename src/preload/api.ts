/**
 * ProfilerApi on top of ipcRenderer.invoke with fixed channel names, for the preload to expose.
 * It takes an ipcRenderer-like object (tests hand in a fake), unwraps the main side's IpcResult
 * envelopes, rebuilds errors as AppError, and multiplexes run events from EVENT_CHANNEL onto the
 * page's listeners: one main-side subscription per run id however many listeners the page adds.
 */
import { EVENT_CHANNEL, channelOf, type ApiMethod, type ProfilerApi } from '../shared/api';
import { AppError, deserializeError } from '../shared/errors';
import { callMethods } from '../shared/apiCalls';
import { RunListeners } from '../shared/runListeners';
import type { RunEvent } from '../shared/events';
import { MENU_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, isMenuCommand, type MenuCommand } from '../main/ipc/channels';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function unwrap(raw: unknown): unknown {
  if (typeof raw === 'object' && raw !== null && 'ok' in raw) {
    const r = raw as { ok: unknown; result?: unknown; error?: unknown };
    if (r.ok === true) return r.result;
    if (r.ok === false) throw deserializeError(r.error);
  }
  throw new AppError('INTERNAL', 'malformed answer from the main process');
}

/** ProfilerApi plus the one desktop extra: the File menu's commands, which only the page can act on. */
export interface PreloadApi extends ProfilerApi {
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}

export function createPreloadApi(ipc: IpcRendererLike): PreloadApi {
  const call = async <T>(method: ApiMethod, args: unknown[]): Promise<T> =>
    unwrap(await ipc.invoke(channelOf(method), ...args)) as T;
  const menuListeners = new Set<(command: MenuCommand) => void>();

  ipc.on(MENU_CHANNEL, (_event, command) => {
    if (!isMenuCommand(command)) return;
    for (const listener of [...menuListeners]) listener(command);
  });

  const changeSubscription = (channel: string, key: string) => {
    ipc.invoke(channel, key).then(unwrap).catch((e: unknown) => console.warn(`${channel} ${key}: ${(e as Error).message}`));
  };
  const listeners = new RunListeners(
    (key) => changeSubscription(SUBSCRIBE_CHANNEL, key),
    (key) => changeSubscription(UNSUBSCRIBE_CHANNEL, key),
  );

  ipc.on(EVENT_CHANNEL, (_event, key, runEvent) => {
    if (typeof key === 'string') listeners.deliver(key, runEvent as RunEvent);
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
