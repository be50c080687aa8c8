/**
 * A page's WebSocket to web mode, for the scripts that stand in for pages (load-check.ts,
 * live-bytes.ts): calls answered by id within a time limit, run events handed to the caller, and
 * every frame shown to an optional hook first, with its size and the method of the call it answers,
 * so a script can count what a page receives.
 */
import { WebSocket } from 'ws';
import { parseServerMessage, type ClientMessage, type ServerMessage } from '../src/shared/wire';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type PageRequest = DistributiveOmit<ClientMessage, 'id'>;
export type EventMessage = ServerMessage & { kind: 'event' };

export interface PageSocketHooks {
  event(m: EventMessage): void;
  /** every frame as it arrives: its message (null when unreadable), its bytes, the method of the call an answer belongs to */
  frame?(m: ServerMessage | null, bytes: number, methodOf: (id: number) => string | undefined): void;
}

interface Pending {
  method: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

export class PageSocket {
  readonly opened: Promise<void>;
  private readonly ws: WebSocket;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(url: string, origin: string, private readonly hooks: PageSocketHooks, private readonly callTimeoutMs: number) {
    this.ws = new WebSocket(url, { origin });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data: Buffer) => this.onFrame(data));
    this.ws.on('close', () => {
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new Error('socket closed'));
    });
  }

  request(message: PageRequest): Promise<unknown> {
    const id = this.nextId++;
    const method = message.kind === 'call' ? message.method : message.kind;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id)?.reject(new Error(`${method}: no answer within ${this.callTimeoutMs} ms`)), this.callTimeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  call(method: string, ...params: unknown[]): Promise<unknown> {
    return this.request({ kind: 'call', method: method as never, params });
  }

  close(): void {
    this.ws.close();
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (p) clearTimeout(p.timer);
    this.pending.delete(id);
    return p;
  }

  private onFrame(data: Buffer): void {
    const m = parseServerMessage(data.toString('utf8'));
    this.hooks.frame?.(m, data.byteLength, (id) => this.pending.get(id)?.method);
    if (!m) return;
    if (m.kind === 'event') return this.hooks.event(m);
    const p = this.settle(m.id);
    if (!p) return;
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(`${p.method}: ${m.error.code}: ${m.error.message}`));
  }
}
