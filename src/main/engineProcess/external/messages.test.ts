import { describe, expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_BYTES, parseEngineLine } from './messages';

const line = (o: unknown) => JSON.stringify(o);

describe("an external engine's messages", () => {
  it('reads each message of protocol 1 into its typed form', () => {
    expect(parseEngineLine(line({ type: 'hello', protocol: 1, engine: 'numpy', version: '2.1', t_ns: 5, device: 'cpu', dtype: 'float32', info: { blas: 'openblas', threads: 4 } }), 1))
      .toEqual({ type: 'hello', engine: 'numpy', version: '2.1', tNs: 5, device: 'cpu', dtype: 'float32', info: { blas: 'openblas', threads: 4 } });
    expect(parseEngineLine(line({ type: 'span', name: 'fit', start_ns: 10, end_ns: 20, args: { phase: 'warm', electrode: 3 } }), 2))
      .toEqual({ type: 'span', name: 'fit', startNs: 10, endNs: 20, args: { phase: 'warm', electrode: 3 } });
    expect(parseEngineLine(line({ type: 'call', phase: 'cold', fit_ms: 1.5, predict_ms: 2 }), 3)).toEqual({ type: 'call', phase: 'cold', fitMs: 1.5, predictMs: 2 });
    expect(parseEngineLine(line({ type: 'counter', name: 'xla compilations', t_ns: 7, value: 12 }), 4)).toEqual({ type: 'counter', name: 'xla compilations', tNs: 7, value: 12 });
    expect(parseEngineLine(line({ type: 'result', name: 'log_likelihood_nonlocal', file: 'll.npy' }), 5)).toEqual({ type: 'result', name: 'log_likelihood_nonlocal', file: 'll.npy' });
    expect(parseEngineLine(line({ type: 'log', message: 'hi' }), 6)).toEqual({ type: 'log', level: 'info', message: 'hi' });
    expect(parseEngineLine(line({ type: 'done' }), 7)).toEqual({ type: 'done' });
  });

  it('refuses a line that breaks the contract, saying which line and what', () => {
    expect(() => parseEngineLine('not json', 4)).toThrow(/events line 4 is not JSON/);
    expect(() => parseEngineLine(line([1]), 1)).toThrow(/events line 1: a message must be a JSON object/);
    expect(() => parseEngineLine(line({ type: 'hello', protocol: 2, engine: 'x', t_ns: 1 }), 1)).toThrow(/'protocol' must be 1, got 2/);
    expect(() => parseEngineLine(line({ type: 'span', name: 'fit', start_ns: 20, end_ns: 10 }), 9)).toThrow(/line 9: span 'fit' ends \(10\) before it starts \(20\)/);
    expect(() => parseEngineLine(line({ type: 'call', phase: 'hot', fit_ms: 1, predict_ms: 1 }), 1)).toThrow(/'phase' must be cold, warmup or warm/);
    expect(() => parseEngineLine(line({ type: 'result', name: 'll', file: '../../etc/passwd.npy' }), 1)).toThrow(/without a path/);
    expect(() => parseEngineLine(line({ type: 'result', name: 'll', file: 'll.txt' }), 1)).toThrow(/must name a .npy file/);
    expect(() => parseEngineLine(line({ type: 'span', name: 'fit', start_ns: 1, end_ns: 2, args: { deep: { x: 1 } } }), 1)).toThrow(/'args.deep' must be a short string/);
    expect(() => parseEngineLine(line({ type: 'counter', name: 'c', t_ns: 1, value: null }), 1)).toThrow(/'value' must be a finite number/);
    expect(() => parseEngineLine(line({ type: 'launch' }), 1)).toThrow(/unknown message type "launch"/);
  });
});

describe('the events stream split into lines', () => {
  it('joins a line split across chunks, skips blank lines and keeps a last line without its newline', () => {
    const lines: [string, number][] = [];
    const s = new LineSplitter((l, n) => lines.push([l, n]));
    s.push(Buffer.from('{"a":'));
    s.push(Buffer.from('1}\n\n{"b":2}\n{"c"'));
    s.push(Buffer.from(':3}'));
    s.end();
    expect(lines).toEqual([['{"a":1}', 1], ['{"b":2}', 3], ['{"c":3}', 4]]);
  });

  it('refuses a line longer than the limit before holding it all', () => {
    const s = new LineSplitter(() => undefined);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    expect(() => {
      for (let i = 0; i <= MAX_LINE_BYTES / chunk.length; i++) s.push(chunk);
    }).toThrow(/events line 1 is longer than 1048576 bytes/);
  });
});
