/**
 * Who may talk to the web-mode server: requests for a loopback host name (no DNS-rebinding name
 * reaches it) that carry the token, in the query on the first page load and in an HttpOnly,
 * SameSite=Strict cookie afterwards. The WebSocket upgrade must also come from the page's own
 * origin, so another site open in the same browser cannot drive the API with the user's cookie.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Cookies are per host, not per port: the name carries the port so two servers do not collide. */
export function cookieName(port: number): string {
  return `kde_profiler_${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

function sameToken(candidate: string | undefined | null, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type TokenSource = 'query' | 'cookie' | null;

/** Where a valid token came from, or null when the request has none. */
export function tokenSource(req: IncomingMessage, url: URL, token: string, port: number): TokenSource {
  if (sameToken(url.searchParams.get('token'), token)) return 'query';
  if (sameToken(cookieValue(req.headers.cookie, cookieName(port)), token)) return 'cookie';
  return null;
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
