/**
 * The desktop side of getApi(): `window.profiler` from the preload, with its rejections (plain
 * SerializedError objects, because contextBridge would strip an Error down to its message)
 * rebuilt into AppError so the UI can switch on `code` in both modes alike.
 */
import type { ProfilerApi } from '../../../shared/api';
import { AppError, deserializeError } from '../../../shared/errors';

function rebuild(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof Error) return new AppError('INTERNAL', e.message);
  return deserializeError(e);
}

/** the members that answer synchronously and so have no rejection to rebuild */
const SYNC_MEMBERS = new Set(['subscribe', 'onMenuCommand']);

export function fromBridge(bridged: ProfilerApi): ProfilerApi {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(bridged)) {
    const fn = (bridged as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    out[name] = SYNC_MEMBERS.has(name)
      ? (...args: unknown[]) => fn(...args)
      : (...args: unknown[]) => (fn(...args) as Promise<unknown>).catch((e: unknown) => Promise.reject(rebuild(e)));
  }
  return out as unknown as ProfilerApi;
}
