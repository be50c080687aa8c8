/**
 * The renderer's one door to the profiler: `getApi()` returns the preload's `window.profiler` in
 * the desktop app and a WebSocket client in web mode; both implement ProfilerApi from shared/.
 *
 * Must not import node, electron, or anything under src/main.
 */
import type { ProfilerApi } from '../../../shared/api';
import { createWsClient, type WsApi } from './wsClient';
import { wsUrlFromLocation } from './wsUrl';

export { createWsClient, type WsApi, type WsClientOptions } from './wsClient';
export { tokenFromSearch, wsUrlFromLocation, type LocationLike } from './wsUrl';
export type { ConnectionState, WebSocketConstructor, WebSocketLike } from './socket';

let current: ProfilerApi | undefined;

export function getApi(): ProfilerApi {
  if (current) return current;
  const bridged = (globalThis as { profiler?: ProfilerApi }).profiler;
  current = bridged ?? createWsClient({ url: wsUrlFromLocation(globalThis.location) });
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

/** Replaces the api for unit tests of stores and views; `undefined` restores the default. */
export function setApiForTests(api: ProfilerApi | undefined): void {
  current = api;
}
