import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from './events';
import { RunListeners } from './runListeners';

const event: RunEvent = { type: 'log', runId: 'r1', seq: 0, level: 'info', message: 'x' };

describe('RunListeners', () => {
  it('subscribes a key on its first listener and unsubscribes after its last, once each', () => {
    const first = vi.fn();
    const last = vi.fn();
    const l = new RunListeners(first, last);
    const a = l.add('r1', () => undefined);
    const b = l.add('r1', () => undefined);
    expect(first).toHaveBeenCalledTimes(1);
    a();
    a();
    expect(last).not.toHaveBeenCalled();
    b();
    expect(last).toHaveBeenCalledWith('r1');
    expect([...l.keys()]).toEqual([]);
  });

  it('delivers to every listener of the key even when one throws', () => {
    const l = new RunListeners(() => undefined, () => undefined);
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    l.add('r1', () => {
      throw new Error('broken');
    });
    l.add('r1', (e) => seen.push(e.type));
    l.add('r2', () => seen.push('wrong key'));
    l.deliver('r1', event);
    expect(seen).toEqual(['log']);
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('refuses a bad run id or listener with BAD_ARGUMENT', () => {
    const l = new RunListeners(() => undefined, () => undefined);
    expect(() => l.add('', () => undefined)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => l.add('r1', 'nope' as never)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});
