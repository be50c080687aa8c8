import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../shared/events';
import type { ChildEnd } from './childRun';
import { endFailure } from './externalFailures';
import { ExternalRecord } from './externalRecord';
import type { ExternalMessage } from './messages';

const hello: ExternalMessage = { type: 'hello', engine: 'script', version: '1', tNs: 0, device: 'cpu', dtype: 'float64', info: { mode: 'ok' } };
const exited = (exitCode: number | null, more: Partial<ChildEnd> = {}): ChildEnd => ({ exitCode, signal: null, stdoutTail: [], stderrTail: [], ...more });
const span = (name: string, ts: number, dur: number): SpanRecord => ({ ph: 'X', proc: 'external', tid: 1, name, cat: 'external', ts, dur });

function recorded(messages: ExternalMessage[]): ExternalRecord {
  const r = new ExternalRecord();
  for (const m of messages) r.take(m, m.type === 'span' ? span(m.name, m.startNs / 1000, (m.endNs - m.startNs) / 1000) : undefined);
  return r;
}

describe("an external engine's record", () => {
  it('times the warm calls (the cold one is the first call) and tables the warm spans only', () => {
    const r = recorded([
      hello,
      { type: 'span', name: 'fit', startNs: 0, endNs: 9e6, args: { phase: 'cold' } },
      { type: 'call', phase: 'cold', fitMs: 9, predictMs: 20 },
      { type: 'span', name: 'fit', startNs: 1e7, endNs: 1.2e7, args: { phase: 'warm' } },
      { type: 'call', phase: 'warm', fitMs: 2, predictMs: 4 },
      { type: 'span', name: 'fit', startNs: 2e7, endNs: 2.4e7, args: { phase: 'warm' } },
      { type: 'call', phase: 'warm', fitMs: 4, predictMs: 6 },
      { type: 'counter', name: 'xla compilations', tNs: 1, value: 17 },
      { type: 'done' },
    ]);
    r.rss(5e8);
    r.rss(3e8);
    const result = r.toResult('cmd:x', ['x'], exited(0), endFailure({ record: r, end: exited(0), timeoutS: 10, outDir: '/o', program: 'x' }));
    expect(result.status).toBe('ok');
    expect(result.total).toMatchObject({ firstMs: 29, samplesMs: [6, 10], medianMs: 8 });
    expect(result.encode?.samplesMs).toEqual([2, 4]);
    expect(result.stages).toEqual([expect.objectContaining({ name: 'fit', calls: 2, totalMs: 6 })]);
    expect(result.external).toMatchObject({ engine: 'script', dtype: 'float64', exitCode: 0, counters: { 'xla compilations': 17 }, peakRssBytes: 5e8 });
  });

  it('refuses messages out of order: nothing before hello, nothing after done, one hello', () => {
    expect(() => recorded([{ type: 'done' }])).toThrow(/first message must be 'hello'/);
    expect(() => recorded([hello, hello])).toThrow(/a second 'hello'/);
    expect(() => recorded([hello, { type: 'done' }, { type: 'log', level: 'info', message: 'x' }])).toThrow(/'log' came after 'done'/);
  });

  it('says why an engine does not count, in its own words where it has them', () => {
    const words = recorded([hello, { type: 'log', level: 'error', message: 'jax is not installed' }]);
    const failure = (r: ExternalRecord, end: ChildEnd) => endFailure({ record: r, end, timeoutS: 30, outDir: '/run/external/1-x', program: 'python3' })?.message;
    expect(failure(words, exited(3))).toBe('cannot run on this machine: jax is not installed');
    expect(words.info('x', [], exited(3)).unavailable).toBe('jax is not installed');
    expect(failure(words, exited(1, { stderrTail: ['Traceback', 'ValueError: boom'] }))).toBe('exited with code 1: jax is not installed');
    expect(failure(recorded([hello]), exited(1, { stderrTail: ['ValueError: boom'] }))).toBe('exited with code 1: ValueError: boom');
    expect(failure(recorded([hello]), exited(null, { signal: 'SIGKILL' }))).toMatch(/killed by SIGKILL \(possibly by the system when memory ran out\)/);
    expect(failure(recorded([hello]), exited(null, { stoppedFor: 'timeout' }))).toMatch(/ran past its 30 s limit/);
    expect(failure(recorded([hello]), exited(null, { stoppedFor: 'spawn', problem: 'spawn python3 ENOENT' }))).toMatch(/could not start python3: spawn python3 ENOENT; give the Python .* with --python PATH/);
    expect(failure(recorded([hello]), exited(0))).toMatch(/exited without sending 'done'/);
    expect(failure(new ExternalRecord(), exited(0, { stdoutTail: ['hello world'] }))).toMatch(/without saying 'hello'.*hello world/);
  });

  it('keeps no timings beside a failure', () => {
    const r = recorded([hello, { type: 'call', phase: 'cold', fitMs: 1, predictMs: 1 }]);
    const end = exited(1);
    const result = r.toResult('numpy', ['python3'], end, endFailure({ record: r, end, timeoutS: 1, outDir: '/o', program: 'python3' }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'RUN_FAILED' } });
    expect(result.total).toBeUndefined();
  });
});
