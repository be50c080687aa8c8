/**
 * The calls a WebSocket client waits on, by id: each with its own timer, and whether it has left.
 * A call that has not left yet survives a reconnect and goes out on the next open; one in flight
 * when the link drops is failed, since it may or may not have run.
 */
import { AppError } from '../../../shared/errors';

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: AppError): void;
  timer: ReturnType<typeof setTimeout>;
  /** set once the request has left; unsent calls survive a reconnect */
  sent: boolean;
  text: string;
}

export class PendingCalls {
  private readonly pending = new Map<number, Pending>();

  /** `host` names the server in the messages of calls that time out. */
  constructor(private readonly host: string) {}

  /** Waits for the answer to call `id`, sent now if `send` can, failed with a clear error after `timeoutMs`. */
  wait(id: number, method: string, text: string, timeoutMs: number, send: (text: string) => boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(
          new AppError('IO', `no answer from the profiler server at ${this.host} to ${method} within ${Math.round(timeoutMs / 1000)} s: check that \`kde-profiler serve\` is still running, then retry.`),
        );
      }, timeoutMs);
      const p: Pending = { method, resolve, reject, timer, sent: false, text };
      this.pending.set(id, p);
      p.sent = send(text);
    });
  }

  /** The call's answer arrived: it is no longer pending. Undefined when it was not (late, or failed already). */
  settle(id: number): Pick<Pending, 'resolve' | 'reject'> | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(id);
    return p;
  }

  /** Sends every call that has not left yet (after a reconnect). */
  sendUnsent(send: (text: string) => boolean): void {
    for (const p of this.pending.values()) if (!p.sent) p.sent = send(p.text);
  }

  /** Fails the calls already sent (their answers are lost with the link), or every call. */
  fail(which: 'sent' | 'all', error: (method: string) => AppError): void {
    for (const [id, p] of [...this.pending]) if (which === 'all' || p.sent) this.settle(id)?.reject(error(p.method));
  }
}
