/**
 * The WebSocket wire format of ProfilerApi in web mode, and its runtime checks. The page connects
 * to ws://127.0.0.1:<port>/ws?token=<token>; every request carries an id the response repeats;
 * run events arrive as pushes for the subscriptions the page opened.
 */
import { API_METHODS, type ApiMethod } from './api';
import type { SerializedError } from './errors';
import type { RunEvent } from './events';

export type ClientMessage =
  | { kind: 'call'; id: number; method: ApiMethod; params: unknown[] }
  | { kind: 'subscribe'; id: number; runId: string }
  | { kind: 'unsubscribe'; id: number; runId: string };

export type ServerMessage =
  | { kind: 'result'; id: number; ok: true; result: unknown }
  | { kind: 'result'; id: number; ok: false; error: SerializedError }
  | { kind: 'event'; runId: string; event: RunEvent };

/** Largest message either side accepts, in bytes: enough for a likelihood view or an export. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const METHODS = new Set<string>(API_METHODS);

/** Parses an untrusted client message; returns null for anything malformed. */
export function parseClientMessage(raw: string): ClientMessage | null {
  if (raw.length > MAX_MESSAGE_BYTES) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id)) return null;
  if (m.kind === 'call') {
    if (typeof m.method !== 'string' || !METHODS.has(m.method) || !Array.isArray(m.params) || m.params.length > 8) return null;
    return { kind: 'call', id: m.id, method: m.method as ApiMethod, params: m.params };
  }
  if (m.kind === 'subscribe' || m.kind === 'unsubscribe') {
    if (typeof m.runId !== 'string' || m.runId.length === 0 || m.runId.length > 100) return null;
    return { kind: m.kind, id: m.id, runId: m.runId };
  }
  return null;
}

/** Parses a server message on the page side; returns null for anything malformed. */
export function parseServerMessage(raw: string): ServerMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  if (m.kind === 'result' && typeof m.id === 'number' && typeof m.ok === 'boolean') {
    if (m.ok) return { kind: 'result', id: m.id, ok: true, result: m.result };
    if (typeof m.error === 'object' && m.error !== null) return { kind: 'result', id: m.id, ok: false, error: m.error as SerializedError };
    return null;
  }
  if (m.kind === 'event' && typeof m.runId === 'string' && typeof m.event === 'object' && m.event !== null) {
    return { kind: 'event', runId: m.runId, event: m.event as RunEvent };
  }
  return null;
}
