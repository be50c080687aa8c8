/**
 * A WebSocket that comes back: after a close that nobody asked for it reconnects with exponential
 * backoff (with jitter, so several tabs do not hammer a restarting server in step) and tells its
 * owner each time it is open again, so subscriptions can be renewed.
 */

/** The part of the WHATWG WebSocket used here; the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type ConnectionState = 'connecting' | 'open' | 'closed';

const OPEN = 1;

export interface SocketOptions {
  url: string;
  WebSocketImpl: WebSocketConstructor;
  initialDelayMs: number;
  maxDelayMs: number;
  onOpen(): void;
  onText(text: string): void;
  /** a connection ended (or never opened); `everOpened` tells a lost link from a refused one */
  onDown(everOpened: boolean): void;
  onState(state: ConnectionState): void;
}

export class ReconnectingSocket {
  private ws: WebSocketLike | undefined;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly options: SocketOptions) {
    this.connect();
  }

  get isOpen(): boolean {
    return this.ws !== undefined && this.ws.readyState === OPEN;
  }

  send(text: string): boolean {
    if (!this.ws || !this.isOpen) return false;
    this.ws.send(text);
    return true;
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close(1000, 'client closed');
    this.ws = undefined;
    this.options.onState('closed');
  }

  private connect(): void {
    if (this.stopped) return;
    this.options.onState('connecting');
    let opened = false;
    let ws: WebSocketLike;
    try {
      ws = new this.options.WebSocketImpl(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.options.onState('open');
      this.options.onOpen();
    };
    ws.onmessage = (event) => {
      if (typeof event.data === 'string') this.options.onText(event.data);
    };
    // a failed connection fires error and then close; the close alone drives the reconnect
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.options.onDown(opened);
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.options.onState('connecting');
    const base = Math.min(this.options.maxDelayMs, this.options.initialDelayMs * 2 ** this.attempt);
    this.attempt += 1;
    const delayMs = base * (0.75 + Math.random() * 0.5);
    this.timer = setTimeout(() => this.connect(), delayMs);
  }
}
