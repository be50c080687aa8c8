import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/wire';
import { MAX_SUBSCRIPTIONS_PER_PAGE } from '../../shared/runIds';
import { attachSession, messageText } from './wsSession';

describe('messages to pages', () => {
  it('writes the text JSON.stringify would, for events, answers and errors', () => {
    const messages: ServerMessage[] = [
      { kind: 'event', runId: 'r1', event: { kind: 'progress', fraction: 0.5, label: 'a "quoted" label' } as never },
      { kind: 'result', id: 7, ok: true, result: Object.freeze({ rows: [1, 2], name: 'x' }) },
      { kind: 'result', id: 8, ok: true, result: null },
      { kind: 'result', id: 9, ok: true, result: 'text' },
      { kind: 'result', id: 10, ok: false, error: { name: 'AppError', code: 'NOT_FOUND', message: 'no such run' } },
    ];
    for (const m of messages) expect(JSON.parse(messageText(m))).toEqual(JSON.parse(JSON.stringify(m)));
  });

  it('serialises a frozen answer once for every page, and a mutable one afresh each time', () => {
    const frozen = Object.freeze({ spans: [1, 2, 3] });
    const first = messageText({ kind: 'result', id: 1, ok: true, result: frozen });
    expect(messageText({ kind: 'result', id: 2, ok: true, result: frozen })).toBe(first.replace('"id":1', '"id":2'));
    const mutable = { spans: [1] };
    messageText({ kind: 'result', id: 3, ok: true, result: mutable });
    mutable.spans.push(2);
    expect(JSON.parse(messageText({ kind: 'result', id: 4, ok: true, result: mutable })).result).toEqual({ spans: [1, 2] });
  });
});

describe('a page session', () => {
  /** A socket as attachSession uses it: messages in through 'message', answers out through send. */
  function fakeSocket() {
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const sent: ServerMessage[] = [];
    const ws = {
      readyState: 1,
      bufferedAmount: 0,
      on: (event: string, fn: (...args: unknown[]) => void) => handlers.set(event, fn),
      send: (text: string) => sent.push(JSON.parse(text) as ServerMessage),
      terminate: () => undefined,
    };
    const receive = (message: unknown) => handlers.get('message')!(Buffer.from(JSON.stringify(message)), false);
    return { ws: ws as never, sent, receive };
  }

  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('sends a page the coded error without a stack, and logs the stack of an unexpected one', async () => {
    const { ws, sent, receive } = fakeSocket();
    const lines: string[] = [];
    const api = { getInfo: () => { throw new TypeError('r.createdAt.replace is not a function'); } } as never;
    attachSession(ws, api, (line) => lines.push(line));
    receive({ kind: 'call', id: 1, method: 'getInfo', params: [] });
    await settle();
    expect(sent[0]).toMatchObject({ kind: 'result', id: 1, ok: false, error: { code: 'INTERNAL', message: 'r.createdAt.replace is not a function' } });
    expect(JSON.stringify(sent[0])).not.toMatch(/stack|wsSession/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^getInfo: TypeError: r\.createdAt\.replace is not a function\n\s+at /);
  });

  it('refuses a subscription past the cap with a plain message, and keeps serving the page', async () => {
    const { ws, sent, receive } = fakeSocket();
    const api = { subscribe: () => () => undefined, getInfo: () => ({ version: '1' }) } as never;
    attachSession(ws, api, () => undefined);
    for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_PAGE; i++) receive({ kind: 'subscribe', id: i, runId: `20250101-000000-${String(i).padStart(6, '0')}` });
    receive({ kind: 'call', id: 1000, method: 'getInfo', params: [] });
    await settle();
    const answers = sent.filter((m) => m.kind === 'result');
    expect(answers.filter((m) => m.ok)).toHaveLength(MAX_SUBSCRIPTIONS_PER_PAGE + 1);
    expect(answers.find((m) => m.id === MAX_SUBSCRIPTIONS_PER_PAGE)).toMatchObject({
      ok: false, error: { code: 'BAD_ARGUMENT', message: expect.stringMatching(/already follows 64 runs/) },
    });
  });
});
