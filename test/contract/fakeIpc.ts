/**
 * Electron's IPC without Electron: an ipcMain and an ipcRenderer joined in memory, every value
 * structured-cloned on the way across as Electron does, and a contextBridge stand-in that copies
 * a rejected Error with its message only, as the real bridge does.
 */
import type { IpcInvokeEventLike, IpcMainLike, IpcSenderLike } from '../../src/main/ipc';
import type { IpcResult } from '../../src/shared/ipcChannels';
import type { IpcRendererLike } from '../../src/preload/api';

type Handler = (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<IpcResult>;
type Listener = (event: unknown, ...args: unknown[]) => void;

export interface FakeIpc {
  ipcMain: IpcMainLike & { handlers: Map<string, Handler> };
  /** a renderer whose calls arrive from the given frame URL and webContents id */
  renderer(options: { contentsId: number; frameUrl: string; isSubframe?: boolean }): IpcRendererLike & { destroy(): void };
}

export function createFakeIpc(): FakeIpc {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handlers,
    handle(channel: string, handler: Handler) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
  };

  return {
    ipcMain,
    renderer({ contentsId, frameUrl, isSubframe = false }) {
      const listeners = new Map<string, Set<Listener>>();
      const destroyed = new Set<() => void>();
      let isDestroyed = false;
      const sender: IpcSenderLike = {
        id: contentsId,
        send(channel, ...args) {
          const cloned = structuredClone(args);
          // like webContents.send: delivered on a later task, never synchronously
          setTimeout(() => {
            for (const l of listeners.get(channel) ?? []) l({}, ...cloned);
          }, 0);
        },
        isDestroyed: () => isDestroyed,
        once(_event, listener) {
          destroyed.add(listener);
          return sender;
        },
      };
      const event: IpcInvokeEventLike = { sender, senderFrame: { url: frameUrl, parent: isSubframe ? {} : null } };
      return {
        async invoke(channel, ...args) {
          const handler = handlers.get(channel);
          if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
          return structuredClone(await handler(event, ...structuredClone(args)));
        },
        on(channel, listener) {
          let set = listeners.get(channel);
          if (!set) listeners.set(channel, (set = new Set()));
          set.add(listener);
        },
        destroy() {
          isDestroyed = true;
          for (const l of destroyed) l();
        },
      };
    },
  };
}

/** contextBridge.exposeInMainWorld's copy: functions proxied, rejections copied, Errors reduced to their message. */
export function throughContextBridge<T extends object>(api: T): T {
  const copyRejection = (e: unknown) => Promise.reject(e instanceof Error ? new Error(e.message) : structuredClone(e));
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(api) as [string, (...args: unknown[]) => unknown][]) {
    out[name] = (...args: unknown[]) => {
      let value: unknown;
      try {
        value = fn(...args);
      } catch (e) {
        throw e instanceof Error ? new Error(e.message) : e;
      }
      return value instanceof Promise ? value.catch(copyRejection) : value;
    };
  }
  return out as T;
}
