/**
 * Pages of web mode for the fault tests that drive its real server over WebSocket: a page holding
 * the token, what the server answered it, and the answer to one of its calls. Part of the fault
 * kit (faultKit.ts), apart so that the tests without a server do not load ws.
 */
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/wire';
import { waitFor } from './faultKit';

export interface Page {
  ws: WebSocket;
  /** every message the server sent it, in order */
  answers: ServerMessage[];
  /** the close code, once the socket closed */
  closed: Promise<number>;
}

export interface PageOptions {
  /** the largest message the page takes in (ws's own default otherwise) */
  maxPayload?: number;
  /** where the page's socket goes as soon as it is made, for the test to terminate whatever happens */
  keep?: WebSocket[];
}

/** A page holding the token: resolves once open, or with the HTTP status that refused it (-1 when the connection failed). */
export function openPage(server: { port: number; token: string }, options: PageOptions = {}): Promise<Page | number> {
  const origin = `http://127.0.0.1:${server.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
    origin, ...(options.maxPayload === undefined ? {} : { maxPayload: options.maxPayload }),
  });
  options.keep?.push(ws);
  const answers: ServerMessage[] = [];
  ws.on('message', (d) => answers.push(JSON.parse((d as Buffer).toString('utf8')) as ServerMessage));
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return new Promise((resolve) => {
    ws.on('open', () => resolve({ ws, answers, closed }));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

/** A page the server must let in. */
export async function page(server: { port: number; token: string }, options: PageOptions = {}): Promise<Page> {
  const p = await openPage(server, options);
  if (typeof p === 'number') throw new Error(`the server refused a page: ${p}`);
  return p;
}

/** The server's answer to the page's call `id`, waited for up to `ms`. */
export function answerTo(p: Page, id: number, ms = 10_000): Promise<ServerMessage> {
  return waitFor(`the answer to call ${id}`, () => p.answers.find((a) => a.kind === 'result' && a.id === id), ms);
}
