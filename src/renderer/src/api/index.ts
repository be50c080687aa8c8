/**
 * The renderer's one door to the profiler: `getApi()` returns the preload's `window.profiler` in
 * the desktop app and a WebSocket client in web mode; both implement ProfilerApi from shared/.
 *
 * Must not import node, electron, or anything under src/main.
 */
import type { ProfilerApi } from '../../../shared/api';
import type { MenuCommand } from '../../../shared/ipcChannels';
import { fromBridge } from './bridgeClient';
import { missingTokenClient } from './missingTokenClient';
import { createWsClient, type WsApi } from './wsClient';
import { takePageToken, wsUrlFor, type TokenStorage } from './wsUrl';

export { fromBridge } from './bridgeClient';
export { MISSING_TOKEN_MESSAGE, missingTokenClient } from './missingTokenClient';
export { createWsClient, type WsApi, type WsClientOptions } from './wsClient';
export {
  addressWithoutToken, takePageToken, tokenFromSearch, tokenStorageKey, wsUrlFor, type HistoryLike, type LocationLike, type TokenStorage,
} from './wsUrl';
export type { ConnectionState, WebSocketConstructor, WebSocketLike } from './socket';

let current: ProfilerApi | undefined;

/**
 * The origin's localStorage, shared by the browser's tabs of this page, so a run link copied into a
 * new tab works; reading it may throw where the browser forbids storage.
 */
function originStorageOrNull(): TokenStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Web mode: the token leaves the address bar here, once, before the app reads its route. */
function webApi(): ProfilerApi {
  const { location, history } = globalThis;
  const token = takePageToken(location, originStorageOrNull(), history);
  return token === null ? missingTokenClient() : createWsClient({ url: wsUrlFor(location, token) });
}

export function getApi(): ProfilerApi {
  if (current) return current;
  const bridged = (globalThis as { profiler?: ProfilerApi }).profiler;
  current = bridged ? fromBridge(bridged) : webApi();
  return current;
}

/** True in the desktop app, where native dialogs (pickDataFile) exist. */
export function isDesktop(): boolean {
  return (globalThis as { profiler?: ProfilerApi }).profiler !== undefined;
}

/** The WebSocket client when in web mode (for a connection banner), else null. */
export function getWsApi(): WsApi | null {
  const api = getApi();
  return 'onConnectionState' in api ? (api as WsApi) : null;
}

export type { MenuCommand };

/** Listens to the desktop menu's commands; a no-op in web mode. Returns the unsubscribe function. */
export function onMenuCommand(listener: (command: MenuCommand) => void): () => void {
  const api = getApi() as ProfilerApi & { onMenuCommand?: (l: (c: MenuCommand) => void) => () => void };
  return typeof api.onMenuCommand === 'function' ? api.onMenuCommand(listener) : () => undefined;
}
