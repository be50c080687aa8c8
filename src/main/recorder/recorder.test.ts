import { describe, it, expect } from 'vitest';
import type { SpanRecord, TraceRecord } from '../../shared/events';
import { DEVICE_TID, Recorder } from './recorder';
import { estimateClockOffsetNs, parseOriginNs } from './clock';

/** A clock that advances by `stepNs` on every read, so durations are known exactly. */
function steppingClock(startNs: bigint, stepNs: bigint): () => bigint {
  let t = startNs;
  return () => {
    const now = t;
    t += stepNs;
    return now;
  };
}

const spansOf = (records: TraceRecord[]): SpanRecord[] => records.filter((r): r is SpanRecord => r.ph === 'X');
const toNs = (us: number): number => Math.round(us * 1000);

describe('Recorder spans', () => {
  it('answers the spans open now, outermost first, each where the trace will say it started', async () => {
    const rec = new Recorder({ proc: 'engine', tid: 3, originNs: 1_000_000n, nowNs: steppingClock(1_000_000n, 1_000n) });
    let inside: ReturnType<Recorder['openSpans']> = [];
    await rec.span('run', () => rec.span('decode', () => {
      inside = rec.openSpans();
    }, { strategy: 'reference' }));
    expect(inside.map((o) => [o.proc, o.tid, o.name, o.args])).toEqual([['engine', 3, 'run', undefined], ['engine', 3, 'decode', { strategy: 'reference' }]]);
    const spans = spansOf(rec.takeRecords());
    expect(inside.map((o) => o.startUs)).toEqual(['run', 'decode'].map((name) => spans.find((s) => s.name === name)!.ts));
    expect(rec.openSpans()).toEqual([]);
    await expect(rec.span('bad', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(rec.openSpans()).toEqual([]);
  });

  it('nests children inside parents on the main lane', async () => {
    const rec = new Recorder({ proc: 'engine', originNs: 1_000_000n, nowNs: steppingClock(1_000_000n, 1_234n) });
    await rec.span('encode', async () => {
      await rec.span('electrode', async () => {
        await rec.span('ground-process', () => 1);
      }, { e: 0 });
      await rec.span('electrode', async () => undefined, { e: 1 });
    });
    const records = rec.takeRecords();
    expect(records[0]).toEqual({ ph: 'M', proc: 'engine', tid: 1, name: 'thread_name', args: { name: 'main' } });
    const spans = spansOf(records);
    expect(spans.map((s) => s.name)).toEqual(['ground-process', 'electrode', 'electrode', 'encode']);
    const encode = spans[3]!;
    for (const child of spans.slice(0, 3)) {
      expect(toNs(child.ts)).toBeGreaterThanOrEqual(toNs(encode.ts));
      expect(toNs(child.ts) + toNs(child.dur)).toBeLessThanOrEqual(toNs(encode.ts) + toNs(encode.dur));
    }
    expect(toNs(spans[0]!.ts) + toNs(spans[0]!.dur)).toBeLessThanOrEqual(toNs(spans[1]!.ts) + toNs(spans[1]!.dur));
    expect(spans[1]!.args).toEqual({ e: 0 });
    // first clock read is the origin itself: encode starts at 0 and the times keep ns precision
    expect(encode.ts).toBe(0);
    for (const s of spans) expect(Math.abs(s.ts * 1000 - toNs(s.ts))).toBeLessThan(1e-6);
    expect(rec.depth).toBe(0);
  });

  it('closes a span whose function throws, records the error and rethrows', async () => {
    const rec = new Recorder({ proc: 'engine' });
    await expect(rec.span('outer', () => rec.span('inner', () => {
      throw new Error('boom');
    }))).rejects.toThrow('boom');
    const spans = spansOf(rec.takeRecords());
    expect(spans.map((s) => [s.name, s.args?.error])).toEqual([['inner', 'boom'], ['outer', 'boom']]);
    expect(rec.depth).toBe(0);
  });

  it('records the args of a span as they are when it ends (a stage fills in the work its kernel counted)', async () => {
    const rec = new Recorder({ proc: 'engine' });
    const args: { work: number; label: string } = { work: 0, label: 'reduce' };
    await rec.span('reduce', () => {
      args.work = 42;
    }, args);
    expect(spansOf(rec.takeRecords())[0]!.args).toEqual({ work: 42, label: 'reduce' });
  });

  it('cuts a child that outlives its parent at the parent end', async () => {
    const rec = new Recorder({ proc: 'engine', nowNs: steppingClock(0n, 1000n), originNs: 0n });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let child!: Promise<void>;
    await rec.span('parent', () => {
      child = rec.span('child', () => gate);
    });
    release();
    await child;
    const [parent, late] = spansOf(rec.takeRecords());
    expect(parent!.name).toBe('parent');
    expect(late!.name).toBe('child');
    expect(toNs(late!.ts) + toNs(late!.dur)).toBe(toNs(parent!.ts) + toNs(parent!.dur));
  });

  it('times from a shared origin handed over as a string', async () => {
    const rec = new Recorder({ proc: 'engine', originNs: '5000000', nowNs: () => 5_002_500n });
    await rec.span('x', () => undefined);
    const [s] = spansOf(rec.takeRecords());
    expect(s!.ts).toBe(2.5); // µs since origin
    expect(s!.dur).toBe(0);
  });

  it('closes open spans as unfinished on close()', () => {
    const rec = new Recorder({ proc: 'service' });
    void rec.span('run', () => new Promise(() => undefined));
    rec.close();
    const [s] = spansOf(rec.takeRecords());
    expect(s).toMatchObject({ name: 'run', args: { unfinished: true } });
  });
});

describe('Recorder device lane', () => {
  it("puts the device's spans on their own named lane, from the shared origin, one after another", () => {
    const rec = new Recorder({ proc: 'engine', originNs: 1_000_000n, nowNs: () => 1_000_000n });
    rec.deviceSpans([
      { name: 'KdeFusedSpikeMax', startNs: 1_002_000n, endNs: 1_005_000n },
      // begins before the one above ended (its clock rounded): it starts where that one ends
      { name: 'KdeFusedTerms', startNs: 1_004_000n, endNs: 1_009_500n },
    ], 'GPU: test adapter');
    rec.deviceSpans([{ name: 'ReduceProgram', startNs: 1_010_000n, endNs: 1_010_000n }], 'GPU: test adapter');
    const records = rec.takeRecords();
    const names = records.filter((r) => r.ph === 'M' && r.tid === DEVICE_TID);
    expect(names).toEqual([{ ph: 'M', proc: 'engine', tid: DEVICE_TID, name: 'thread_name', args: { name: 'GPU: test adapter' } }]);
    expect(spansOf(records).map((s) => [s.tid, s.name, s.cat, toNs(s.ts), toNs(s.dur)])).toEqual([
      [DEVICE_TID, 'KdeFusedSpikeMax', 'gpu', 2000, 3000],
      [DEVICE_TID, 'KdeFusedTerms', 'gpu', 5000, 4500],
      [DEVICE_TID, 'ReduceProgram', 'gpu', 10_000, 0],
    ]);
  });
});

describe('Recorder counters, instants, progress', () => {
  it('records counters and thread-scoped instants', () => {
    const rec = new Recorder({ proc: 'service' });
    const values = { rss: 10, heapUsed: 5 };
    rec.counter('memory (MB)', values);
    values.rss = 99;
    rec.instant('cold start done', { strategy: 'reference' });
    const [, c, i] = rec.takeRecords();
    expect(c).toMatchObject({ ph: 'C', proc: 'service', name: 'memory (MB)', args: { rss: 10, heapUsed: 5 } });
    expect(i).toMatchObject({ ph: 'I', s: 't', tid: 1, name: 'cold start done', args: { strategy: 'reference' } });
  });

  it('reports progress clamped to 0..1', () => {
    const seen: Array<[number, string]> = [];
    const rec = new Recorder({ proc: 'engine', onProgress: (f, l) => seen.push([f, l]) });
    rec.progress(1.7, 'decode');
    rec.progress(Number.NaN, 'x');
    expect(seen).toEqual([[1, 'decode'], [0, 'x']]);
  });
});

describe('Recorder batching', () => {
  it('flushes a batch when it reaches the record limit', async () => {
    const batches: TraceRecord[][] = [];
    const rec = new Recorder({ proc: 'engine', onBatch: (b) => batches.push(b), maxBatchRecords: 10, flushIntervalMs: 60_000 });
    for (let i = 0; i < 25; i++) await rec.span(`s${i}`, () => i);
    expect(batches.map((b) => b.length)).toEqual([10, 10]);
    rec.flush();
    expect(batches.map((b) => b.length)).toEqual([10, 10, 6]);
    expect(batches.flat()).toHaveLength(26);
  });

  it('flushes on the interval timer when the process is idle', async () => {
    const batches: TraceRecord[][] = [];
    const rec = new Recorder({ proc: 'engine', onBatch: (b) => batches.push(b), flushIntervalMs: 20 });
    rec.instant('a');
    await new Promise((r) => setTimeout(r, 80));
    expect(batches.flat().map((r) => r.name)).toEqual(['thread_name', 'a']);
  });

  it('records nothing when disabled and still runs the functions', async () => {
    const batches: TraceRecord[][] = [];
    const rec = new Recorder({ proc: 'engine', disabled: true, onBatch: (b) => batches.push(b) });
    const v = await rec.span('outer', () => rec.span('inner', () => 42));
    rec.counter('memory (MB)', { rss: 1 });
    rec.instant('x');
    rec.flush();
    expect(v).toBe(42);
    expect(batches).toEqual([]);
    await expect(rec.span('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  });
});

describe('clock', () => {
  it('parses string origins and rejects garbage', () => {
    expect(parseOriginNs('123456789012345')).toBe(123456789012345n);
    expect(() => parseOriginNs('12x')).toThrow(/decimal integer/);
  });

  it('estimates the offset from a symmetric round trip', () => {
    expect(estimateClockOffsetNs(1000n, 50_600n, 1200n)).toBe(49_500n);
  });
});
