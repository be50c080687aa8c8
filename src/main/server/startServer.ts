/**
 * Web mode's server: the built renderer and ProfilerApi over WebSocket at /ws, on a loopback
 * address only. The renderer's files hold no data and are served without the token; the
 * WebSocket, the only way to data, is refused with 401 without it (see auth.ts).
 */
import { realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ProfilerApi } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { MAX_CLIENT_MESSAGE_BYTES } from '../../shared/wire';
import { rendererCspHeader } from '../../shared/csp';
import { hasToken, isLoopbackHost, isOwnOrigin, newToken } from './auth';
import { PAGE_LIVENESS, watchPages, type PageLivenessOptions } from './pageLiveness';
import { resolveStaticPath, sendFile } from './staticFiles';
import { attachSession, logToStderr } from './wsSession';

export interface ServerOptions {
  service: ProfilerApi;
  /** 0 or absent: a free port */
  port?: number;
  host?: '127.0.0.1' | '::1';
  /** the built renderer (out/renderer) */
  staticDir: string;
  /** tests pass one; otherwise a fresh random token */
  token?: string;
  /** when pages are pinged and dropped (pageLiveness.ts); tests shorten them, everyone else keeps PAGE_LIVENESS */
  liveness?: Partial<PageLivenessOptions>;
  /** where the server says what a page is not told (a page dropped, an unexpected error); default: stderr */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** the page URL, token included: the page moves it to its tab's sessionStorage and out of the address bar */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** open pages at once: a lab shares a server among a few people, each with a few tabs */
export const MAX_SESSIONS = 32;

const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // the token rides in the first URL until the page removes it: never hand it on in a Referer
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

function refuse(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...COMMON_HEADERS });
  res.end(`${text}\n`);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== '::1') {
    throw new AppError('BAD_ARGUMENT', `web mode listens on loopback only (127.0.0.1 or ::1), not ${String(host)}: reach it from elsewhere through an SSH tunnel.`);
  }
  const token = options.token ?? newToken();
  const root = await realpath(options.staticDir).catch(() => {
    throw new AppError('NOT_FOUND', `the built renderer is missing at ${options.staticDir}: run \`npm run build\` first.`, { file: options.staticDir });
  });
  const log = options.log ?? logToStderr;
  const server = createServer(pageHandler(root));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  const pages = watchPages(wss, { ...PAGE_LIVENESS, ...options.liveness }, log);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refusal = upgradeRefusal(req, token, wss.clients.size);
    if (refusal) return refuseUpgrade(socket, refusal.status, refusal.reason);
    wss.handleUpgrade(req, socket, head, (ws) => {
      pages.track(ws);
      attachSession(ws, options.service, log);
    });
  });
  try {
    await listen(server, options.port ?? 0, host);
  } catch (e) {
    pages.stop();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '::1' ? '[::1]' : host;

  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    async close() {
      pages.stop();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The page's files: they hold no data and need no token; the data flows only through /ws, which does. */
function pageHandler(root: string): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!isLoopbackHost(req.headers.host)) return refuse(res, 403, 'forbidden: this server answers only to 127.0.0.1 or localhost');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const file = await resolveStaticPath(root, url.pathname);
    if (file === null) return refuse(res, 404, 'not found');
    const isHtml = file.endsWith('.html');
    const headers: Record<string, string> = {
      ...COMMON_HEADERS,
      'Cache-Control': isHtml ? 'no-store' : 'private, max-age=3600',
    };
    if (isHtml) headers['Content-Security-Policy'] = rendererCspHeader();
    await sendFile(res, file, req.method === 'HEAD', headers);
  };
  return (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    });
  };
}

/** Why a WebSocket upgrade is refused, in the order the checks cost; null when it may proceed. */
function upgradeRefusal(req: IncomingMessage, token: string, openSessions: number): { status: number; reason: string } | null {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/ws') return { status: 404, reason: 'Not Found' };
  if (!isLoopbackHost(req.headers.host)) return { status: 403, reason: 'Forbidden' };
  if (!hasToken(url, token)) return { status: 401, reason: 'Unauthorized' };
  if (!isOwnOrigin(req)) return { status: 403, reason: 'Forbidden' };
  if (openSessions >= MAX_SESSIONS) return { status: 503, reason: 'Service Unavailable' };
  return null;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'EADDRINUSE'
        ? new AppError('IO', `port ${port} on ${host} is in use: pick another with --port, or leave it out for a free one.`)
        : e);
    });
    server.listen(port, host, () => resolvePromise());
  });
}
