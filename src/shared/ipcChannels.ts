/**
 * What travels on the desktop's IPC channels besides the method calls themselves (those are
 * `channelOf(method)` in api.ts): subscriptions, the answer envelope and the File menu's commands.
 * Run events go to the page on EVENT_CHANNEL (api.ts) as two arguments, the subscription key they
 * are for (a run id, or '*') and the event, so a page subscribed to both '*' and a run tells the
 * two deliveries apart; the preload checks each event (events.ts readRunEvent) before any listener
 * sees it. The preload bundles this file, so it imports nothing but shared types.
 */
import type { SerializedError } from './errors';

export const SUBSCRIBE_CHANNEL = 'profiler:subscribe';
export const UNSUBSCRIBE_CHANNEL = 'profiler:unsubscribe';

/**
 * Every handler answers with an envelope instead of throwing: Electron flattens a thrown error into
 * "Error invoking remote method …" and loses its code.
 */
export type IpcResult = { ok: true; result: unknown } | { ok: false; error: SerializedError };

/** Menu commands the page acts on (the rest of the menu is handled in main). */
export const MENU_CHANNEL = 'profiler:menu';

export type MenuCommand = { command: 'open-data'; path: string } | { command: 'open-run' } | { command: 'export' };

export function isMenuCommand(v: unknown): v is MenuCommand {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  if (c.command === 'open-data') return typeof c.path === 'string' && c.path.length > 0;
  return c.command === 'open-run' || c.command === 'export';
}
