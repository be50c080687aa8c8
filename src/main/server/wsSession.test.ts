import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/wire';
import { messageText } from './wsSession';

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
