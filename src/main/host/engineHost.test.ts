import { describe, expect, it, vi } from 'vitest';
import type { EngineChild, EngineExit } from './engineChild';
import { CANCEL_GRACE_MS, describeEngineExit, startEngine } from './engineHost';
import type { EngineOutcome, HostToEngine } from '../engineProtocol';

class FakeChild implements EngineChild {
  readonly pid = 4242;
  sent: HostToEngine[] = [];
  killed = false;
  stderr = '';
  private messageListeners: ((m: unknown) => void)[] = [];
  private exitListeners: ((e: EngineExit) => void)[] = [];
  send(m: HostToEngine) {
    this.sent.push(m);
  }
  onMessage(l: (m: unknown) => void) {
    this.messageListeners.push(l);
  }
  onExit(l: (e: EngineExit) => void) {
    this.exitListeners.push(l);
  }
  kill() {
    this.killed = true;
    this.exit({ code: null, signal: 'SIGKILL' });
  }
  stderrTail() {
    return this.stderr;
  }
  post(m: unknown) {
    for (const l of this.messageListeners) l(m);
  }
  exit(e: EngineExit) {
    for (const l of this.exitListeners) l(e);
  }
}

const start = {
  type: 'start' as const, runId: 'r', runDir: '/tmp/x', originNs: '1',
  config: { data: { kind: 'preset' as const, name: 'tiny' as const, seed: 1, features: 2, featureScale: 1 }, backend: 'wasm' as const,
    strategies: ['reference' as const], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true },
};
const listeners = () => ({ onTrace: vi.fn(), onProgress: vi.fn(), onLog: vi.fn() });

describe('describeEngineExit', () => {
  it('names out-of-memory deaths from the V8 message', () => {
    const why = describeEngineExit({ code: 134, signal: null }, 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');
    expect(why).toMatch(/^out of memory/);
  });
  it('says a SIGKILL may come from the system running out of memory', () => {
    expect(describeEngineExit({ code: null, signal: 'SIGKILL' }, '')).toMatch(/killed \(SIGKILL\)/);
  });
  it('quotes the last stderr line of an unexpected exit', () => {
    expect(describeEngineExit({ code: 7, signal: null }, 'warn\nTypeError: boom\n')).toBe(
      'the engine process exited unexpectedly with code 7: TypeError: boom',
    );
  });
});

describe('open spans of a live run', () => {
  it("holds the engine process's own span and the engine's latest list until the process ends", () => {
    const child = new FakeChild();
    const handle = startEngine(() => child, { ...start, runId: 'open-1', originNs: String(process.hrtime.bigint()) }, listeners());
    expect(handle.openSpans()).toEqual([{ proc: 'service', tid: 1, name: 'engine process', startUs: expect.any(Number) }]);
    child.post({ type: 'open-spans', spans: [{ proc: 'engine', tid: 1, name: 'run', startUs: 5 }] });
    child.post({ type: 'open-spans', spans: [{ proc: 'engine', name: 'malformed' }] });
    expect(handle.openSpans().map((s) => s.name)).toEqual(['engine process', 'run']);
    child.exit({ code: 0, signal: null });
    expect(handle.openSpans()).toEqual([]);
  });
});

describe('startEngine', () => {
  it('sends the start message, forwards records and completes with the outcome', async () => {
    const child = new FakeChild();
    const l = listeners();
    const h = startEngine(() => child, start, l);
    expect(child.sent[0]).toEqual(start);
    child.post({ type: 'trace', records: [{ ph: 'I', proc: 'engine', tid: 1, name: 'x', cat: 'e', ts: 1, s: 't' }] });
    child.post({ type: 'progress', progress: { fraction: 0.5, label: 'x', elapsedMs: 1 } });
    child.post({ type: 'result', outcome: { strategies: [] } as unknown as EngineOutcome });
    child.exit({ code: 0, signal: null });
    const end = await h.done;
    expect(end.kind).toBe('completed');
    expect(l.onTrace).toHaveBeenCalledTimes(1);
    expect(l.onProgress).toHaveBeenCalledWith({ fraction: 0.5, label: 'x', elapsedMs: 1 });
  });

  it('fails with the engine error when the engine reports one', async () => {
    const child = new FakeChild();
    const h = startEngine(() => child, start, listeners());
    child.post({ type: 'error', error: { name: 'AppError', code: 'E001', message: "Required array 'position' not found." } });
    child.exit({ code: 0, signal: null });
    const end = await h.done;
    expect(end).toMatchObject({ kind: 'failed', error: { code: 'E001' } });
  });

  it('fails with a reason when the process dies without a result', async () => {
    const child = new FakeChild();
    child.stderr = 'FATAL ERROR: JavaScript heap out of memory';
    const h = startEngine(() => child, start, listeners());
    child.exit({ code: 134, signal: null });
    const end = await h.done;
    expect(end.kind).toBe('failed');
    expect(end.kind === 'failed' && end.error.message).toMatch(/^out of memory/);
  });

  it('keeps the last partial outcome for a run that dies or is cancelled, and the final one for a run that completes', async () => {
    const partial = { strategies: [{ strategy: 'reference' }] } as unknown as EngineOutcome;
    const dying = new FakeChild();
    const d = startEngine(() => dying, start, listeners());
    dying.post({ type: 'partial', outcome: partial });
    dying.exit({ code: null, signal: 'SIGKILL' });
    expect(await d.done).toMatchObject({ kind: 'failed', outcome: partial });

    const cancelled = new FakeChild();
    const c = startEngine(() => cancelled, start, listeners());
    cancelled.post({ type: 'partial', outcome: partial });
    cancelled.post({ type: 'cancelled' });
    cancelled.exit({ code: 0, signal: null });
    expect(await c.done).toMatchObject({ kind: 'cancelled', outcome: partial });

    const finishing = new FakeChild();
    const f = startEngine(() => finishing, start, listeners());
    const final = { strategies: [{ strategy: 'reference' }, { strategy: 'compensated' }] } as unknown as EngineOutcome;
    finishing.post({ type: 'partial', outcome: partial });
    finishing.post({ type: 'result', outcome: final });
    finishing.exit({ code: 0, signal: null });
    expect(await f.done).toEqual({ kind: 'completed', outcome: final });
  });

  it('kills an engine that does not stop within the grace period after cancel', async () => {
    vi.useFakeTimers();
    try {
      const child = new FakeChild();
      const h = startEngine(() => child, start, listeners());
      const cancelled = h.cancel();
      expect(child.sent[1]).toEqual({ type: 'cancel' });
      expect(child.killed).toBe(false);
      vi.advanceTimersByTime(CANCEL_GRACE_MS + 1);
      expect(child.killed).toBe(true);
      expect((await cancelled).kind).toBe('cancelled');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a spawn failure as a failed run instead of throwing', async () => {
    const h = startEngine(() => {
      throw new Error('ENOENT');
    }, start, listeners());
    const end = await h.done;
    expect(end.kind === 'failed' && end.error.message).toMatch(/could not start the engine process: ENOENT/);
  });
});
