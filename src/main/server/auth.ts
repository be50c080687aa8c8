/**
 * Who may talk to the web-mode server. Every request must name a loopback host (no DNS-rebinding
 * name reaches it). The page bundle holds no data, so it is served to any such request; the API,
 * the WebSocket at /ws, also needs the token in the query of its URL and the page's own origin,
 * so another site open in the same browser cannot drive it. No cookie carries the token: cookies
 * are per host, not per port, so every other server on 127.0.0.1 would receive it. The page keeps
 * the token in its tab's sessionStorage instead.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function sameToken(candidate: string | undefined | null, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request URL carries the token in `?token=`; nothing else (no cookie, no header) counts. */
export function hasToken(url: URL, token: string): boolean {
  return sameToken(url.searchParams.get('token'), token);
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The Host header names this machine's loopback (any port: an SSH tunnel may remap it). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.toLowerCase());
  return m !== null && LOOPBACK_NAMES.has(m[1]!);
}

/** A browser's WebSocket from our own page sends Origin http://<the Host it connects to>. */
export function isOwnOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return typeof origin === 'string' && host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}
