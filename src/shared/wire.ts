/**
 * The WebSocket wire format of ProfilerApi in web mode, and its runtime checks. The page connects
 * to ws://127.0.0.1:<port>/ws?token=<token>; every request carries an id the response repeats;
 * run events arrive as pushes for the subscriptions the page opened, each checked (events.ts) before
 * the page hears it: a live run's trace reaches a page as notices of what changed, never record by
 * record.
 */
import { API_METHODS, type ApiMethod } from './api';
import type { SerializedError } from './errors';
import { readRunEvent, type RunEvent } from './events';

export type ClientMessage =
  | { kind: 'call'; id: number; method: ApiMethod; params: unknown[] }
  | { kind: 'subscribe'; id: number; runId: string }
  | { kind: 'unsubscribe'; id: number; runId: string };

export type ServerMessage =
  | { kind: 'result'; id: number; ok: true; result: unknown }
  | { kind: 'result'; id: number; ok: false; error: SerializedError }
  | { kind: 'event'; runId: string; event: RunEvent };

/** Largest answer the server sends, in bytes: enough for a likelihood view or an export. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/**
 * Largest request a page may send: the biggest legitimate one (scanData with 256 paths of 4096
 * characters, a recipe) is about 1 MB. Parsing is what costs the server memory (a 60 MB array of
 * empty objects takes gigabytes), so the cap is close to what is needed, not to what is answered.
 */
export const MAX_CLIENT_MESSAGE_BYTES = 2 * 1024 * 1024;

const METHODS = new Set<string>(API_METHODS);

/** A client message read once: the message, or why not with the id to answer when it has one. */
export type ClientMessageReading = { ok: true; message: ClientMessage } | { ok: false; id: number | null };

/** Reads an untrusted client message with one JSON.parse, however it turns out. */
export function readClientMessage(raw: string): ClientMessageReading {
  if (raw.length > MAX_CLIENT_MESSAGE_BYTES) return { ok: false, id: null };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, id: null };
  }
  if (typeof v !== 'object' || v === null) return { ok: false, id: null };
  const m = v as Record<string, unknown>;
  if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id)) return { ok: false, id: null };
  const refused = { ok: false, id: m.id } as const;
  if (m.kind === 'call') {
    if (typeof m.method !== 'string' || !METHODS.has(m.method) || !Array.isArray(m.params) || m.params.length > 8) return refused;
    return { ok: true, message: { kind: 'call', id: m.id, method: m.method as ApiMethod, params: m.params } };
  }
  if (m.kind === 'subscribe' || m.kind === 'unsubscribe') {
    if (typeof m.runId !== 'string' || m.runId.length === 0 || m.runId.length > 100) return refused;
    return { ok: true, message: { kind: m.kind, id: m.id, runId: m.runId } };
  }
  return refused;
}

/** Parses an untrusted client message; returns null for anything malformed. */
export function parseClientMessage(raw: string): ClientMessage | null {
  const r = readClientMessage(raw);
  return r.ok ? r.message : null;
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
  if (m.kind === 'event' && typeof m.runId === 'string') {
    const event = readRunEvent(m.event);
    return event ? { kind: 'event', runId: m.runId, event } : null;
  }
  return null;
}
