/**
 * ProfilerApi over Electron IPC, main side: one invoke handler per API method plus two for
 * subscriptions. Takes an ipcMain-like object (so tests drive it without Electron), refuses
 * senders the check does not trust, checks argument shapes, answers with an IpcResult envelope,
 * and forwards run events to the subscribing webContents on EVENT_CHANNEL.
 */
import { API_METHODS, EVENT_CHANNEL, channelOf, type ApiMethod, type ExportResult, type ProfilerApi } from '../../shared/api';
import { AppError, isUnexpected, pageError } from '../../shared/errors';
import { callApi } from '../../shared/apiArgs';
import { SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, type IpcResult } from '../../shared/ipcChannels';
import { checkSubscriptionKey, checkSubscriptionRoom } from '../../shared/runIds';
import type { SenderEventLike } from './senderCheck';

export interface IpcSenderLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface IpcInvokeEventLike extends SenderEventLike {
  readonly sender: IpcSenderLike;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<IpcResult>): void;
  removeHandler(channel: string): void;
}

export interface IpcHandlerOptions {
  ipcMain: IpcMainLike;
  /** the service: every method but pickDataFile goes to it */
  api: ProfilerApi;
  /** the native open dialog, owned by the composition root */
  pickDataFile(): Promise<string | null>;
  isTrustedSender(event: IpcInvokeEventLike): boolean;
  /**
   * The desktop saves an export through a save dialog and answers with `savedPath` (or neither
   * path nor bytes when the user cancels); absent, the bytes go back as base64 as in web mode.
   */
  saveExport?(result: ExportResult): Promise<ExportResult>;
  /** where an unexpected error's stack goes instead of the page (console.error when absent) */
  log?: (line: string) => void;
}

/** The page's form of an error; an unexpected one's stack goes to the log instead. */
function answerError(e: unknown, log: ((line: string) => void) | undefined): ReturnType<typeof pageError> {
  if (isUnexpected(e)) (log ?? console.error)(`profiler call failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return pageError(e);
}

/** Registers every handler; the returned function removes them and ends all subscriptions. */
export function registerIpcHandlers(options: IpcHandlerOptions): () => void {
  const { ipcMain, api } = options;
  const bySender = new Map<number, Map<string, () => void>>();

  const guarded = (fn: (event: IpcInvokeEventLike, args: unknown[]) => Promise<unknown>) =>
    async (event: IpcInvokeEventLike, ...args: unknown[]): Promise<IpcResult> => {
      try {
        if (!options.isTrustedSender(event)) {
          throw new AppError('UNAUTHORIZED', 'this page may not call the profiler: only the app window itself can.');
        }
        return { ok: true, result: await fn(event, args) };
      } catch (e) {
        return { ok: false, error: answerError(e, options.log) };
      }
    };

  const dropSender = (senderId: number) => {
    const subs = bySender.get(senderId);
    if (!subs) return;
    for (const unsubscribe of subs.values()) unsubscribe();
    bySender.delete(senderId);
  };

  for (const method of API_METHODS) {
    ipcMain.handle(channelOf(method), guarded(async (_event, args) => {
      if (method === 'pickDataFile') {
        if (args.length !== 0) throw new AppError('BAD_ARGUMENT', 'pickDataFile: expected no arguments');
        return options.pickDataFile();
      }
      const result = await callApi(api, method as Exclude<ApiMethod, 'pickDataFile'>, args);
      return method === 'exportRun' && options.saveExport ? options.saveExport(result as ExportResult) : result;
    }));
  }

  ipcMain.handle(SUBSCRIBE_CHANNEL, guarded(async (event, args) => {
    const key = checkSubscriptionKey(args.length === 1 ? args[0] : undefined);
    const sender = event.sender;
    let subs = bySender.get(sender.id);
    if (!subs) {
      subs = new Map();
      bySender.set(sender.id, subs);
      sender.once('destroyed', () => dropSender(sender.id));
    }
    if (subs.has(key)) return null;
    checkSubscriptionRoom(subs.size);
    subs.set(key, api.subscribe(key, (runEvent) => {
      if (!sender.isDestroyed()) sender.send(EVENT_CHANNEL, key, runEvent);
    }));
    return null;
  }));

  ipcMain.handle(UNSUBSCRIBE_CHANNEL, guarded(async (event, args) => {
    const key = checkSubscriptionKey(args.length === 1 ? args[0] : undefined);
    const subs = bySender.get(event.sender.id);
    subs?.get(key)?.();
    subs?.delete(key);
    return null;
  }));

  return () => {
    for (const method of API_METHODS) ipcMain.removeHandler(channelOf(method));
    ipcMain.removeHandler(SUBSCRIBE_CHANNEL);
    ipcMain.removeHandler(UNSUBSCRIBE_CHANNEL);
    for (const id of [...bySender.keys()]) dropSender(id);
  };
}
