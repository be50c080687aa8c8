/**
 * What crosses contextBridge. The bridge copies a thrown or rejected Error with its message only
 * (the code and location would be lost), so rejections leave the preload as plain SerializedError
 * objects, which it copies whole; the renderer's api/ rebuilds them into AppError.
 */
import { serializeError } from '../shared/errors';
import type { PreloadApi } from './api';

/** the members that answer synchronously and so have no rejection to translate */
const SYNC_MEMBERS = new Set(['subscribe', 'onMenuCommand']);

export function bridgeSafe(api: PreloadApi): PreloadApi {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(api) as [string, (...args: unknown[]) => unknown][]) {
    out[name] = SYNC_MEMBERS.has(name)
      ? (...args: unknown[]) => fn(...args)
      : (...args: unknown[]) => (fn(...args) as Promise<unknown>).catch((e: unknown) => Promise.reject(serializeError(e)));
  }
  return out as unknown as PreloadApi;
}
