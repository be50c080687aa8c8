/**
 * ProfilerApi on top of ipcRenderer.invoke with fixed channel names, for the preload to expose.
 * It takes an ipcRenderer-like object (tests hand in a fake), unwraps the main side's IpcResult
 * envelopes, rebuilds errors as AppError, and multiplexes run events from EVENT_CHANNEL onto the
 * page's listeners: one main-side subscription per run id however many listeners the page adds.
 */
import { EVENT_CHANNEL, channelOf, type ApiMethod, type ProfilerApi } from '../shared/api';
import { AppError, deserializeError } from '../shared/errors';
import { callMethods } from '../shared/apiCalls';
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
  const listeners = new Map<string, Set<(event: RunEvent) => void>>();
  const menuListeners = new Set<(command: MenuCommand) => void>();

  ipc.on(MENU_CHANNEL, (_event, command) => {
    if (!isMenuCommand(command)) return;
    for (const listener of [...menuListeners]) listener(command);
  });

  ipc.on(EVENT_CHANNEL, (_event, key, runEvent) => {
    if (typeof key !== 'string') return;
    for (const listener of [...(listeners.get(key) ?? [])]) {
      try {
        listener(runEvent as RunEvent);
      } catch (e) {
        // one broken listener must not starve the others of events
        console.error('run event listener failed', e);
      }
    }
  });

  const changeSubscription = (channel: string, key: string) => {
    ipc.invoke(channel, key).then(unwrap).catch((e: unknown) => console.warn(`${channel} ${key}: ${(e as Error).message}`));
  };

  return {
    ...callMethods(call),
    onMenuCommand(listener) {
      if (typeof listener !== 'function') throw new AppError('BAD_ARGUMENT', 'onMenuCommand: expected a listener function', { key: 'listener' });
      const entry = (command: MenuCommand) => listener(command);
      menuListeners.add(entry);
      return () => void menuListeners.delete(entry);
    },
    subscribe(runId, listener) {
      if (typeof runId !== 'string' || runId.length === 0 || runId.length > 100) {
        throw new AppError('BAD_ARGUMENT', `subscribe: expected a run id or '*', got ${JSON.stringify(runId)}`, { key: 'runId' });
      }
      if (typeof listener !== 'function') throw new AppError('BAD_ARGUMENT', 'subscribe: expected a listener function', { key: 'listener' });
      let set = listeners.get(runId);
      if (!set) {
        set = new Set();
        listeners.set(runId, set);
        changeSubscription(SUBSCRIBE_CHANNEL, runId);
      }
      const entry = (event: RunEvent) => listener(event);
      set.add(entry);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        set.delete(entry);
        if (set.size === 0 && listeners.get(runId) === set) {
          listeners.delete(runId);
          changeSubscription(UNSUBSCRIBE_CHANNEL, runId);
        }
      };
    },
  };
}
