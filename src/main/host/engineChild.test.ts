import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { adaptUtilityProcess, type UtilityProcessLike } from './engineChild';
import { startEngine } from './engineHost';

class FakeUtility extends EventEmitter {
  readonly pid = 99;
  readonly stdout = new EventEmitter();
  readonly stderr = new EventEmitter();
  posted: unknown[] = [];
  killed = false;
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  kill() {
    this.killed = true;
    this.emit('exit', 9);
    return true;
  }
}

describe('adaptUtilityProcess', () => {
  it('carries messages both ways and turns an exit with heap exhaustion on stderr into out of memory', async () => {
    const proc = new FakeUtility();
    const child = adaptUtilityProcess(proc as unknown as UtilityProcessLike);
    const records: unknown[] = [];
    const handle = startEngine(() => child, { type: 'start', runId: 'r', runDir: '/x', originNs: '0', config: {} as never }, {
      onTrace: (r) => records.push(...r), onProgress: () => undefined, onLog: () => undefined,
    });
    expect(proc.posted[0]).toMatchObject({ type: 'start', runId: 'r' });
    proc.emit('message', { type: 'trace', records: [{ ph: 'I', proc: 'engine', tid: 1, name: 'x', cat: 'e', ts: 0, s: 't' }] });
    proc.stderr.emit('data', Buffer.from('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n'));
    proc.emit('exit', 134);
    const end = await handle.done;
    expect(records).toHaveLength(1);
    expect(end.kind === 'failed' && end.error.message).toMatch(/^out of memory/);
    expect(handle.pid).toBe(99);
  });

  it('kills through the utility process', () => {
    const proc = new FakeUtility();
    const child = adaptUtilityProcess(proc as unknown as UtilityProcessLike);
    let exit: unknown;
    child.onExit((e) => (exit = e));
    child.kill();
    expect(proc.killed).toBe(true);
    expect(exit).toEqual({ code: 9, signal: null });
  });
});
