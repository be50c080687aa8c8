import { describe, expect, it } from 'vitest';
import { Recorder } from '../../recorder';
import { WatchedProbe } from './watchedProbe';

describe('WatchedProbe', () => {
  it('lists the spans open now, outermost first, and calls back at each span end while it is still open', async () => {
    const rec = new Recorder({ proc: 'engine', originNs: process.hrtime.bigint() });
    const seen: string[][] = [];
    const probe = new WatchedProbe(rec, { onSpanEnd: () => seen.push(probe.openSpans().map((s) => s.name)) });
    await probe.span('run', async () => {
      await probe.span('decode', () => {
        expect(probe.openSpans().map((s) => s.name)).toEqual(['run', 'decode']);
      }, { strategy: 'reference' });
    });
    expect(seen).toEqual([['run', 'decode'], ['run']]);
    expect(probe.openSpans()).toEqual([]);
    // the trace gets the same spans the recorder alone would write
    const spans = rec.takeRecords().filter((r) => r.ph === 'X');
    expect(spans.map((r) => r.name)).toEqual(['decode', 'run']);
    expect(spans[0]!.ph === 'X' && spans[0]!.args).toEqual({ strategy: 'reference' });
  });

  it('forgets a span that threw', async () => {
    const rec = new Recorder({ proc: 'engine' });
    const probe = new WatchedProbe(rec);
    await expect(probe.span('bad', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(probe.openSpans()).toEqual([]);
  });
});
